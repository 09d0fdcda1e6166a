module github.com/dialectkit/toolcall/internal/clienttest/openaigo

go 1.26.5

require (
	github.com/dialectkit/toolcall v0.0.0
	github.com/openai/openai-go/v3 v3.96.0
)

require (
	github.com/alecthomas/participle/v2 v2.1.4 // indirect
	github.com/coder/websocket v1.8.15 // indirect
	github.com/go-json-experiment/json v0.0.0-20260623181947-01eb4420fa68 // indirect
	github.com/goccy/go-yaml v1.19.2 // indirect
	github.com/kaptinlin/jsonpointer v0.4.28 // indirect
	github.com/kaptinlin/jsonschema v0.9.8 // indirect
	github.com/tidwall/gjson v1.20.0 // indirect
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.2.1 // indirect
	github.com/tidwall/sjson v1.2.5 // indirect
)

replace github.com/dialectkit/toolcall => ../../..
