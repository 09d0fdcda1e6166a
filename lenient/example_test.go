package lenient_test

import (
	"fmt"

	"github.com/dialectkit/toolcall/lenient"
)

func ExampleRepair() {
	res := lenient.Repair([]byte(`{path: 'notes.txt', "append": True, "text": "He said "hi"",}`), nil)
	if res.Err != nil {
		fmt.Println(res.Err)
		return
	}
	fmt.Println(string(res.Output))
	for _, r := range res.Repairs {
		fmt.Println(r)
	}
	// Output:
	// {"path":"notes.txt","append":true,"text":"He said \"hi\""}
	// unquoted_key@1
	// single_quotes@7
	// python_literal@30
	// unescaped_quotes@53
	// unescaped_quotes@56
	// trailing_comma@58
}

func ExampleRepair_valid() {
	input := []byte(`{"city": "Paris", "days": 3}`)
	res := lenient.Repair(input, nil)
	fmt.Println(string(res.Output), res.Attempted, len(res.Repairs))
	// Output: {"city": "Paris", "days": 3} false 0
}

func ExampleRepair_limits() {
	res := lenient.RepairString(`[[[[1]]]]`, &lenient.Options{MaxDepth: 3})
	fmt.Println(res.Err)
	// Output: TLP-013: nesting deeper than the limit [offset 3]
}
