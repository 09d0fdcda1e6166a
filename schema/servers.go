package schema

import (
	"slices"

	"github.com/dialectkit/toolcall"
)

// LookupServer matches a name to the declared tools across MCP server
// prefixes (see toolcall.SplitName), for a name with no exact match:
//
//   - a name without a server ("create_issue") matches every declared tool
//     "server___create_issue";
//   - a combined name ("github___create_issue") matches the tool declared
//     without a server under its tool part ("create_issue").
//
// It returns the declared names matched, sorted; one is a match, several
// are candidates the caller cannot choose between.
func (s *Set) LookupServer(name string) []string {
	if s == nil {
		return nil
	}
	server, tool := toolcall.SplitName(name)
	s.mu.RLock()
	defer s.mu.RUnlock()
	if server != "" {
		if _, ok := s.tools[tool]; ok {
			if sv, _ := toolcall.SplitName(tool); sv == "" {
				return []string{tool}
			}
		}
		return nil
	}
	var out []string
	for _, n := range s.order {
		if sv, t := toolcall.SplitName(n); sv != "" && t == name {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}
