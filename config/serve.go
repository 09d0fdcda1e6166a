package config

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/goccy/go-yaml"

	"github.com/dialectkit/toolcall"
)

// Serve holds the settings of dialect-probe serve, read from the top-level
// serve mapping of a configuration file (ServeKey). A zero value means the
// default of the setting: the command's flag default, or the proxy's own.
// Flags given on the command line override the file.
type Serve struct {
	// Listen is the address to listen on (listen), host:port.
	Listen string
	// Upstream is the base URL of the model server (upstream).
	Upstream string
	// API is the upstream's protocol, ProviderOllama or ProviderOpenAI
	// (api).
	API string
	// APIKeyEnv names the environment variable holding the key clients
	// must send (api_key_env).
	APIKeyEnv string
	// MaxRequestBytes caps a client's request body (max_request_bytes).
	MaxRequestBytes int64
	// MaxResponseBytes caps an upstream answer (max_response_bytes).
	MaxResponseBytes int64
	// MaxConcurrent caps the upstream requests in flight (max_concurrent).
	MaxConcurrent int
	// IdleTimeout ends an upstream answer silent for this long
	// (idle_timeout_ms).
	IdleTimeout time.Duration
	// RequestBodyTimeout bounds the reading of a client's request body
	// (request_body_timeout_ms).
	RequestBodyTimeout time.Duration
	// TotalTimeout ends a request that lasts longer (total_timeout_ms).
	TotalTimeout time.Duration
	// ShutdownGrace is how long in-flight requests may finish once the
	// server is told to stop (shutdown_grace_ms).
	ShutdownGrace time.Duration
}

// serveSetting is one key of the serve mapping.
type serveSetting struct {
	key string
	set func(s *Serve, v any) string
}

func serveString(key string, field func(*Serve) *string, allowed ...string) serveSetting {
	return serveSetting{key, func(s *Serve, v any) string {
		str, ok := v.(string)
		if !ok {
			return "expected a string, got " + yamlKind(v)
		}
		if allowed != nil && !slices.Contains(allowed, str) {
			return fmt.Sprintf("%q is not one of %s", str, strings.Join(allowed, ", "))
		}
		*field(s) = str
		return ""
	}}
}

func serveInt(key string, hi int64, set func(*Serve, int64)) serveSetting {
	return serveSetting{key, func(s *Serve, v any) string {
		n, ok := yamlInt(v)
		if !ok {
			return "expected an integer, got " + yamlKind(v)
		}
		if n < 0 || n > hi {
			return rangeMsg(fmt.Sprint(n), 0, hi)
		}
		set(s, n)
		return ""
	}}
}

func serveMS(key string, hi int64, field func(*Serve) *time.Duration) serveSetting {
	return serveInt(key, hi, func(s *Serve, n int64) { *field(s) = time.Duration(n) * time.Millisecond })
}

// serveSettings lists the keys of the serve mapping in documentation
// order.
var serveSettings = []serveSetting{
	serveString("listen", func(s *Serve) *string { return &s.Listen }),
	serveString("upstream", func(s *Serve) *string { return &s.Upstream }),
	serveString("api", func(s *Serve) *string { return &s.API }, ProviderOllama, ProviderOpenAI),
	serveString("api_key_env", func(s *Serve) *string { return &s.APIKeyEnv }),
	serveInt("max_request_bytes", 1<<40, func(s *Serve, n int64) { s.MaxRequestBytes = n }),
	serveInt("max_response_bytes", 1<<40, func(s *Serve, n int64) { s.MaxResponseBytes = n }),
	serveInt("max_concurrent", 1<<20, func(s *Serve, n int64) { s.MaxConcurrent = int(n) }),
	serveMS("idle_timeout_ms", 86_400_000, func(s *Serve) *time.Duration { return &s.IdleTimeout }),
	serveMS("request_body_timeout_ms", 86_400_000, func(s *Serve) *time.Duration { return &s.RequestBodyTimeout }),
	serveMS("total_timeout_ms", 86_400_000, func(s *Serve) *time.Duration { return &s.TotalTimeout }),
	serveMS("shutdown_grace_ms", 3_600_000, func(s *Serve) *time.Duration { return &s.ShutdownGrace }),
}

// ServeKeys lists the keys of the serve mapping.
func ServeKeys() []string {
	keys := make([]string, len(serveSettings))
	for i, s := range serveSettings {
		keys[i] = s.key
	}
	return keys
}

// LoadServe reads the serve mapping of a configuration file; a file
// without one gives the zero Serve. An unknown key, a value of the wrong
// type or out of range is a TLP-024 error naming the file and the key.
func LoadServe(path string) (Serve, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Serve{}, toolcall.Errorf(toolcall.CodeInvalidConfig, err, "cannot read configuration file "+path)
	}
	s, err := ParseServe(data)
	if err != nil {
		if te, ok := err.(*toolcall.Error); ok {
			te.Message = path + ": " + te.Message
		}
		return Serve{}, err
	}
	return s, nil
}

// ParseServe reads the serve mapping from YAML, as LoadServe does.
func ParseServe(data []byte) (Serve, error) {
	var s Serve
	var doc any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return s, toolcall.Errorf(toolcall.CodeInvalidConfig, err, "configuration is not valid YAML: "+firstLine(err.Error()))
	}
	root, ok := doc.(map[string]any)
	if !ok || root[ServeKey] == nil {
		return s, nil
	}
	m, ok := root[ServeKey].(map[string]any)
	if !ok {
		return s, configError(ServeKey, "expected a mapping, got "+yamlKind(root[ServeKey]), nil)
	}
	for _, k := range sortedKeys(m) {
		i := slices.IndexFunc(serveSettings, func(st serveSetting) bool { return st.key == k })
		if i < 0 {
			return Serve{}, configError(ServeKey+"."+k, "unknown setting (known: "+strings.Join(ServeKeys(), ", ")+")", nil)
		}
		if m[k] == nil {
			continue
		}
		if msg := serveSettings[i].set(&s, m[k]); msg != "" {
			return Serve{}, configError(ServeKey+"."+k, msg, nil)
		}
	}
	return s, nil
}
