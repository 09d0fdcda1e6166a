package dialects

import (
	"encoding/json"
	"testing"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/schema"
)

func TestTypeParams(t *testing.T) {
	set, err := schema.NewSet(toolcall.Tool{Name: "get_weather", Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}},"required":["city"]}`)})
	if err != nil {
		t.Fatal(err)
	}
	tool, _ := set.Lookup("get_weather")
	params := []Param{{Key: "city", Value: "00123"}, {Key: "days", Value: "3"}, {Key: "extra", Value: "[1, 2]"}}
	args, repairs := typeParams(params, tool)
	if string(args) != `{"city":"00123","days":3,"extra":[1, 2]}` {
		t.Errorf("typed = %s", args)
	}
	if len(repairs) != 2 {
		t.Errorf("repairs = %v, want one per conversion", repairs)
	}
	untyped, _ := typeParams([]Param{{Key: "n", Value: "5"}, {Key: "s", Value: "Paris"}, {Key: "q", Value: "x", IsString: true}, {Key: "j", Value: "7", IsString: true}}, nil)
	if string(untyped) != `{"n":5,"s":"Paris","q":"x","j":"7"}` {
		t.Errorf("untyped = %s", untyped)
	}
}
