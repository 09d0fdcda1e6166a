module github.com/dialectkit/toolcall/benchmarks

go 1.26.5

require (
	github.com/dialectkit/toolcall v0.0.0
	github.com/kaptinlin/jsonrepair v0.2.15
	github.com/ollama/ollama v0.17.4
	github.com/tidwall/gjson v1.20.0
)

require (
	github.com/alecthomas/participle/v2 v2.1.4 // indirect
	github.com/bahlo/generic-list-go v0.2.0 // indirect
	github.com/buger/jsonparser v1.1.1 // indirect
	github.com/go-json-experiment/json v0.0.0-20260623181947-01eb4420fa68 // indirect
	github.com/goccy/go-yaml v1.19.2 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/kaptinlin/jsonpointer v0.4.28 // indirect
	github.com/kaptinlin/jsonschema v0.9.8 // indirect
	github.com/mailru/easyjson v0.7.7 // indirect
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.2.0 // indirect
	github.com/wk8/go-ordered-map/v2 v2.1.8 // indirect
	golang.org/x/crypto v0.43.0 // indirect
	golang.org/x/sys v0.48.0 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)

replace github.com/dialectkit/toolcall => ../
