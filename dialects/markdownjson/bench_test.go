package markdownjson_test

import (
	"encoding/json"
	"testing"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/markdownjson"
)

const (
	benchArgs = `{"city": "Tokyo", "units": "celsius", "days": 3}`
	benchText = "I'll look up the forecast.\n\n```json\n{\"name\": \"get_weather\", \"arguments\": " + benchArgs + "}\n```\n"
)

func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(benchText)))
	for b.Loop() {
		res := dialects.Parse(markdownjson.Dialect, benchText, nil)
		if len(res.Calls) != 1 {
			b.Fatal(res.Errors)
		}
	}
}

// BenchmarkBaselineUnmarshal is the floor: encoding/json decoding the same
// call's arguments, with no dialect work at all.
func BenchmarkBaselineUnmarshal(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(benchArgs)))
	for b.Loop() {
		var v map[string]any
		if err := json.Unmarshal([]byte(benchArgs), &v); err != nil {
			b.Fatal(err)
		}
	}
}
