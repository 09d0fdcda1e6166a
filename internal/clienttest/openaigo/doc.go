// Package openaigo tests the tool-call-fixing proxy with the openai-go
// client, through the proxy's Handler and through its Transport. It is a
// module of its own so that the main module does not depend on openai-go.
package openaigo
