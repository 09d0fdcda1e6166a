package fuzzcheck_test

import (
	"fmt"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/hermes"
	"github.com/dialectkit/toolcall/internal/fuzzcheck"
)

// CheckResult is the contract every parse result keeps, whatever the input.
func ExampleCheckResult() {
	for _, text := range []string{
		"<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\",}}\n</tool_call>",
		"<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}}\n</tool_call>",
		"\x00\xff<tool_call>",
	} {
		res := dialects.Parse(hermes.Dialect, text, nil)
		fmt.Println(len(res.Calls), len(res.Errors), fuzzcheck.CheckResult(res, text, nil))
	}
	// Output:
	// 1 0 <nil>
	// 0 1 <nil>
	// 0 0 <nil>
}
