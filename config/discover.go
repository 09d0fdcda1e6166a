package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/dialectkit/toolcall"
)

// EnvFile is the environment variable that names the configuration file
// when no flag does: DIALECTKIT_CONFIG=/path/to/config.yml. Empty is the
// same as unset.
const EnvFile = "DIALECTKIT_CONFIG"

// UserFile is where a user keeps the configuration every project shares,
// relative to the user's configuration directory (os.UserConfigDir:
// $XDG_CONFIG_HOME or ~/.config on Linux, ~/Library/Application Support
// on macOS, %AppData% on Windows).
const UserFile = "dialectkit/config.yml"

// Origin says how the configuration file was chosen.
type Origin string

// How a configuration file is chosen, strongest first: FindFile tries
// them in this order.
const (
	// OriginFlag: the command line named it (--config).
	OriginFlag Origin = "flag"
	// OriginEnv: the EnvFile variable named it.
	OriginEnv Origin = "environment"
	// OriginWorkDir: AgentPath, found in the working directory.
	OriginWorkDir Origin = "working directory"
	// OriginUserDir: UserFile, found in the user's configuration directory.
	OriginUserDir Origin = "user configuration directory"
)

// File is the configuration file a command reads, and how it was chosen.
// An empty Path means none: every setting keeps its default.
type File struct {
	Path   string `json:"path,omitempty"`
	Origin Origin `json:"origin,omitempty"`
}

// UserPath is the path of UserFile in the user's configuration directory.
func UserPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, filepath.FromSlash(UserFile)), nil
}

// FindFile chooses the configuration file when no flag names one: the
// file the EnvFile variable names (found through lookup, os.LookupEnv;
// nil reads none), else AgentPath if it exists in the working directory,
// else UserPath if it exists there; else none. A file the variable names
// must exist: one that does not is a TLP-024 error naming the variable. A
// file found is only chosen here; reading it (Resolve, LoadServe) checks
// it as it checks a file a flag names.
func FindFile(lookup func(string) (string, bool)) (File, error) {
	if lookup != nil {
		if path, _ := lookup(EnvFile); path != "" {
			if _, err := os.Stat(path); err != nil {
				return File{}, toolcall.Errorf(toolcall.CodeInvalidConfig, err, EnvFile+": cannot read configuration file "+path)
			}
			return File{Path: path, Origin: OriginEnv}, nil
		}
	}
	candidates := []File{{Path: filepath.FromSlash(AgentPath), Origin: OriginWorkDir}}
	if user, err := UserPath(); err == nil {
		candidates = append(candidates, File{Path: user, Origin: OriginUserDir})
	}
	for _, c := range candidates {
		_, err := os.Stat(c.Path)
		switch {
		case err == nil:
			return c, nil
		case !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR):
			// A file that is there but cannot be looked at is not skipped
			// for a weaker one: the user meant it.
			return File{}, toolcall.Errorf(toolcall.CodeInvalidConfig, err, "cannot read configuration file "+c.Path)
		}
	}
	return File{}, nil
}
