package schema

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/internal/coded"
)

// version is a parsed tool version: MAJOR[.MINOR[.PATCH]][-PRE][+BUILD],
// with an optional leading "v".
type version struct {
	major, minor, patch int
	pre                 string
}

// parseVersion reads a version; ok is false for text that is not one.
func parseVersion(s string) (v version, ok bool) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "v")
	if i := strings.IndexByte(s, '+'); i >= 0 {
		s = s[:i]
	}
	if i := strings.IndexByte(s, '-'); i >= 0 {
		s, v.pre = s[:i], s[i+1:]
		if v.pre == "" {
			return v, false
		}
	}
	parts := strings.Split(s, ".")
	if len(parts) > 3 {
		return v, false
	}
	nums := [3]int{}
	for i, p := range parts {
		if p == "" || len(p) > 9 || strings.Trim(p, "0123456789") != "" {
			return v, false
		}
		nums[i], _ = strconv.Atoi(p)
	}
	v.major, v.minor, v.patch = nums[0], nums[1], nums[2]
	return v, true
}

// compare orders versions; a pre-release comes before its release.
func (v version) compare(w version) int {
	for _, d := range [3]int{v.major - w.major, v.minor - w.minor, v.patch - w.patch} {
		if d != 0 {
			return d
		}
	}
	switch {
	case v.pre == w.pre:
		return 0
	case v.pre == "":
		return 1
	case w.pre == "":
		return -1
	}
	return strings.Compare(v.pre, w.pre)
}

// checkVersion fills t.Version from the schema's "x-version" when it has
// none, and refuses text that is not a version.
func checkVersion(t *toolcall.Tool) error {
	if t.Version == "" {
		t.Version = toolcall.SchemaVersion(t.Parameters)
	}
	if t.Version == "" {
		return nil
	}
	if _, ok := parseVersion(t.Version); !ok {
		e := toolcall.NewError(toolcall.CodeInvalidTool, fmt.Sprintf("tool %q has version %q, which is not MAJOR[.MINOR[.PATCH]]", t.Name, t.Version))
		e.Tool = t.Name
		return e
	}
	return nil
}

func (t *Tool) version() version {
	v, _ := parseVersion(t.Version)
	return v
}

// keepVersion records ct among the versions of its tool and returns the
// newest version, which Lookup returns. The caller holds the lock. A tool
// without a version, or one replacing a tool without a version, replaces
// what was there, as an unversioned set always did.
func (s *Set) keepVersion(ct *Tool) *Tool {
	name := ct.Name
	old, had := s.tools[name]
	if ct.Version == "" || !had || old.Version == "" {
		if s.versions != nil {
			delete(s.versions, name)
		}
		if ct.Version != "" {
			if s.versions == nil {
				s.versions = map[string][]*Tool{}
			}
			s.versions[name] = []*Tool{ct}
		}
		return ct
	}
	list := s.versions[name]
	i, found := slices.BinarySearchFunc(list, ct, func(a, b *Tool) int { return a.version().compare(b.version()) })
	if found {
		list[i] = ct
	} else {
		list = slices.Insert(list, i, ct)
	}
	s.versions[name] = list
	return list[len(list)-1]
}

// Versions returns the registered versions of a tool, oldest first: empty
// for a tool declared without a version, nil for an unknown name.
func (s *Set) Versions(name string) []string {
	if s == nil {
		return nil
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if _, ok := s.tools[name]; !ok {
		return nil
	}
	out := []string{}
	for _, t := range s.versions[name] {
		out = append(out, t.Version)
	}
	return out
}

// LookupVersion returns the tool registered under this name and exactly
// this version.
func (s *Set) LookupVersion(name, ver string) (*Tool, bool) {
	if s == nil {
		return nil, false
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, t := range s.versions[name] {
		if t.Version == ver {
			return t, true
		}
	}
	return nil, false
}

// Select returns the version of a tool a call is validated against: the
// newest whose major matches the version opts.Versions.Pins pins for it, or the
// newest when none is pinned or the tool has no versions. An unknown name
// is toolcall.CodeUnknownTool (as Resolve); a pin whose major no version has
// is toolcall.CodeVersionMismatch naming the pinned and the newest version.
func (s *Set) Select(name string, opts Options) (*Tool, error) {
	t, e := s.selectVersion(name, opts)
	return t, coded.Err(e)
}

// selectVersion is Select with the concrete error.
func (s *Set) selectVersion(name string, opts Options) (*Tool, *toolcall.Error) {
	newest, err := s.resolve(name)
	if err != nil {
		return nil, err
	}
	var pin string
	if opts.Versions != nil {
		pin = opts.Versions.Pins[name]
	}
	if pin == "" || newest.Version == "" {
		return newest, nil
	}
	want, ok := parseVersion(pin)
	if !ok {
		e := toolcall.NewError(toolcall.CodeInvalidInput, fmt.Sprintf("the version pinned for tool %q, %q, is not MAJOR[.MINOR[.PATCH]]", name, pin))
		e.Tool = name
		return nil, e
	}
	s.mu.RLock()
	list := s.versions[name]
	s.mu.RUnlock()
	for i := len(list) - 1; i >= 0; i-- {
		if list[i].version().major == want.major {
			return list[i], nil
		}
	}
	e := toolcall.NewError(toolcall.CodeVersionMismatch, fmt.Sprintf("tool %q is declared at version %s; the caller pins version %s (major %d), and no declared version has that major",
		name, newest.Version, pin, want.major))
	e.Tool = name
	e.Expected = pin
	e.Actual = newest.Version
	return nil, e
}

// Check validates args against t, a version of one of the set's tools (as
// Select returns it), like t.Validate; during a transition opts declares for
// the tool, arguments that break t but are valid under the newest version
// of the previous major are accepted as they are, with a
// toolcall.RepairSchemaMigration repair naming both versions.
func (s *Set) Check(t *Tool, args json.RawMessage, opts Options) (json.RawMessage, []toolcall.Repair, error) {
	out, repairs, e := s.check(t, args, opts, false)
	return out, repairs, coded.Err(e)
}

// CheckStrict is Check for args known to be strict JSON (RFC 8259, UTF-8
// encoded), as dialects.Finish produces them: the validity is not checked
// again before the schema is. Arguments that break the schema, or are not
// an object, get the same errors as from Check; args that are not strict
// JSON must go through Check.
func (s *Set) CheckStrict(t *Tool, args json.RawMessage, opts Options) (json.RawMessage, []toolcall.Repair, error) {
	out, repairs, e := s.check(t, args, opts, true)
	return out, repairs, coded.Err(e)
}

// check is Check with the concrete error; strict is validate's.
func (s *Set) check(t *Tool, args json.RawMessage, opts Options, strict bool) (json.RawMessage, []toolcall.Repair, *toolcall.Error) {
	out, repairs, err := t.validateKnown(args, opts, strict)
	if err == nil || err.Code != toolcall.CodeSchema || t.Version == "" || opts.Versions == nil || !inTransition(opts.Versions.Transition, t.Name) {
		return out, repairs, err
	}
	prev := s.previousMajor(t)
	if prev == nil {
		return out, repairs, err
	}
	pout, prepairs, perr := prev.validateKnown(args, opts, strict)
	if perr != nil {
		return out, repairs, err
	}
	prepairs = append(prepairs, toolcall.Repair{Kind: toolcall.RepairSchemaMigration, Offset: -1,
		Detail: fmt.Sprintf("valid under version %s, not under %s: upgrade the arguments", prev.Version, t.Version)})
	return pout, prepairs, nil
}

// ValidateVersion selects the version of the named tool (Select) and checks
// args against it (Check).
func (s *Set) ValidateVersion(name string, args json.RawMessage, opts Options) (json.RawMessage, []toolcall.Repair, error) {
	return s.Validate(name, args, opts)
}

func inTransition(list []string, name string) bool {
	return slices.Contains(list, name) || slices.Contains(list, "*")
}

// previousMajor returns the newest registered version of t's tool whose
// major is below t's, or nil.
func (s *Set) previousMajor(t *Tool) *Tool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	list := s.versions[t.Name]
	major := t.version().major
	for i := len(list) - 1; i >= 0; i-- {
		if m := list[i].version().major; m < major {
			return list[i]
		}
	}
	return nil
}
