package config_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/config"
)

// userDir points the user's configuration directory at a temporary one on
// every system, and returns where UserFile goes.
func userDir(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("AppData", filepath.Join(home, "AppData"))
	path, err := config.UserPath()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(path, home) || !strings.HasSuffix(filepath.ToSlash(path), config.UserFile) {
		t.Fatalf("UserPath() = %s, not %s under %s", path, config.UserFile, home)
	}
	return path
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestFindFile: the variable, then .agent/config.yml in the working
// directory, then the user's file; none when none is there.
func TestFindFile(t *testing.T) {
	named := filepath.Join(t.TempDir(), "named.yml")
	write(t, named, "max_retries: 1\n")
	tests := []struct {
		name          string
		env           string // the variable's value; "" unset
		work, user    bool   // which files exist
		agentIsAFile  bool   // .agent is a file, not a directory
		want          config.File
		wantErrSubstr string
	}{
		{name: "none", want: config.File{}},
		{name: "user only", user: true, want: config.File{Path: "USER", Origin: config.OriginUserDir}},
		{name: "working directory over user", work: true, user: true, want: config.File{Path: filepath.FromSlash(config.AgentPath), Origin: config.OriginWorkDir}},
		{name: "variable over both", env: named, work: true, user: true, want: config.File{Path: named, Origin: config.OriginEnv}},
		{name: "variable naming no file", env: named + ".missing", work: true, wantErrSubstr: "DIALECTKIT_CONFIG: cannot read configuration file " + named + ".missing"},
		{name: ".agent a file: not there", agentIsAFile: true, user: true, want: config.File{Path: "USER", Origin: config.OriginUserDir}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			user := userDir(t)
			t.Chdir(t.TempDir())
			if tt.work {
				write(t, config.AgentPath, "max_retries: 2\n")
			}
			if tt.agentIsAFile {
				write(t, ".agent", "not a directory\n")
			}
			if tt.user {
				write(t, user, "max_retries: 3\n")
			}
			env := map[string]string{}
			if tt.env != "" {
				env[config.EnvFile] = tt.env
			}
			got, err := config.FindFile(func(k string) (string, bool) { v, ok := env[k]; return v, ok })
			if tt.wantErrSubstr != "" {
				if !errors.Is(err, toolcall.ErrInvalidConfig) || !strings.Contains(err.Error(), tt.wantErrSubstr) {
					t.Fatalf("err = %v, want TLP-024 with %q", err, tt.wantErrSubstr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.want.Path == "USER" {
				tt.want.Path = user
			}
			if got != tt.want {
				t.Errorf("FindFile = %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestFindFileEmptyVariable: an empty DIALECTKIT_CONFIG is unset.
func TestFindFileEmptyVariable(t *testing.T) {
	userDir(t)
	t.Chdir(t.TempDir())
	write(t, config.AgentPath, "max_retries: 2\n")
	got, err := config.FindFile(func(k string) (string, bool) { return "", k == config.EnvFile })
	if err != nil || got.Origin != config.OriginWorkDir {
		t.Errorf("FindFile = %+v, %v; want the working directory's file", got, err)
	}
}

// TestFoundFileIsChecked: a malformed file found in the working directory
// is the TLP-024 a file named by flag is, naming the file and the key.
func TestFoundFileIsChecked(t *testing.T) {
	userDir(t)
	t.Chdir(t.TempDir())
	write(t, config.AgentPath, "tool_call:\n  max_retries: 99\n")
	f, err := config.FindFile(nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _, found := config.Resolve(f.Path, config.ProviderOllama, nil, nil)
	_, _, named := config.Resolve(filepath.FromSlash(config.AgentPath), config.ProviderOllama, nil, nil)
	if !errors.Is(found, toolcall.ErrInvalidConfig) || found.Error() != named.Error() ||
		!strings.Contains(found.Error(), filepath.FromSlash(config.AgentPath)+": tool_call.max_retries") {
		t.Errorf("found: %v\nnamed: %v", found, named)
	}
}
