package schema_test

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/schema"
)

func Example() {
	tools, err := toolcall.ParseTools([]byte(`[{"type":"function","function":{
		"name":"get_weather",
		"parameters":{"type":"object","properties":{
			"city":{"type":"string"},
			"days":{"type":"integer","minimum":1,"maximum":14},
			"unit":{"type":"string","enum":["C","F"]}},
		"required":["city","days"]}}}]`))
	if err != nil {
		panic(err)
	}
	set, err := schema.NewSet(tools...)
	if err != nil {
		panic(err)
	}

	// Validation reports every violation, without quoting the model's
	// values; strict mode also rejects a property the schema does not
	// declare, which JSON Schema alone accepts (no additionalProperties).
	// The error is a *toolcall.Error, reached with errors.As.
	_, _, err = set.Validate("get_weather", json.RawMessage(`{"days":30,"unit":"K","lang":"fr"}`), schema.Options{Strict: true})
	var verr *toolcall.Error
	errors.As(err, &verr)
	fmt.Println(verr.Code, verr.Missing)
	for _, v := range verr.Violations {
		fmt.Println(v.Message)
	}

	// Coercion is opt-in; every change is recorded.
	out, repairs, err := set.Validate("get_weather", json.RawMessage(`{"city":"Oslo","days":"3"}`), schema.Options{Coerce: true})
	fmt.Println(string(out), repairs, err == nil)

	// Unknown names come back with the declared ones.
	_, _, err = set.Validate("get_wether", json.RawMessage(`{}`), schema.Options{})
	errors.As(err, &verr)
	fmt.Println(verr.Code, verr.Known)
	// Output:
	// TLP-004 [city]
	// /city: required property is missing
	// /days: must be at most 14
	// /unit: must be one of "C", "F"
	// /lang: property is not declared by the schema (declared: city, days, unit)
	// {"city":"Oslo","days":3} [coercion (/days: string→integer)] true
	// TLP-005 [get_weather]
}

func ExampleTypeText() {
	set, _ := schema.NewSet(toolcall.Tool{Name: "edit", Parameters: json.RawMessage(
		`{"type":"object","properties":{"order_id":{"type":"string"},"replace_all":{"type":"boolean"}}}`)})
	tool, _ := set.Lookup("edit")
	id, _ := schema.TypeText(tool, "order_id", "00123", false, false)
	flag, r := schema.TypeText(tool, "replace_all", "false", false, false)
	fmt.Println(string(id), string(flag), r.Detail)
	// Output: "00123" false /replace_all: text→boolean
}
