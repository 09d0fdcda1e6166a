module github.com/dialectkit/toolcall/benchmarks

go 1.26.5

require (
	github.com/dialectkit/toolcall v0.0.0
	github.com/kaptinlin/jsonrepair v0.2.15
	github.com/tidwall/gjson v1.20.0
)

require (
	github.com/alecthomas/participle/v2 v2.1.4 // indirect
	github.com/go-json-experiment/json v0.0.0-20260623181947-01eb4420fa68 // indirect
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.2.0 // indirect
	github.com/titanous/json5 v1.0.0 // indirect
)

replace github.com/dialectkit/toolcall => ../
