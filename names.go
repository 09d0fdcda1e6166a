package toolcall

import "strings"

// ServerSeparator joins an MCP server's name and one of its tools' names
// into the combined name agents that host several MCP servers declare:
// "github___create_issue".
const ServerSeparator = "___"

// SplitName splits a combined tool name "server___tool" at its first
// separator that has a non-empty part on both sides. A name without one has
// no server: SplitName returns "" and the name.
func SplitName(name string) (server, tool string) {
	for from := 0; from < len(name); {
		i := strings.Index(name[from:], ServerSeparator)
		if i < 0 {
			break
		}
		i += from
		if i > 0 && i+len(ServerSeparator) < len(name) {
			return name[:i], name[i+len(ServerSeparator):]
		}
		from = i + 1
	}
	return "", name
}

// JoinName is the combined name of a server's tool, or the tool's name
// alone when server is empty.
func JoinName(server, tool string) string {
	if server == "" {
		return tool
	}
	return server + ServerSeparator + tool
}
