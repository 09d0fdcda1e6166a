package callobject

import (
	"testing"

	"github.com/dialectkit/toolcall/dialects/internal/fields"
)

func TestFieldListsFitTheEnvelope(t *testing.T) {
	for _, list := range [][]string{fields.Name, fields.Arguments, fields.ID} {
		if len(list) > maxFields {
			t.Errorf("%d aliases, the envelope keeps %d", len(list), maxFields)
		}
	}
}

// Every name field holds a word mayNameCallRaw looks for, so that an
// object it passes over could not have named a call.
func TestNameFieldsHoldAWord(t *testing.T) {
	for _, f := range fields.Name {
		if !mayNameCallRaw(f) {
			t.Errorf("name field %q holds none of the words looked for", f)
		}
	}
	for _, text := range []string{`{path: 'a', content: 'func main() {}'}`, `{"a": 1}`} {
		if mayNameCallRaw(text) {
			t.Errorf("%s: may name a call", text)
		}
		if _, ok := Read(text, 0, nil); ok {
			t.Errorf("%s: read as a call", text)
		}
	}
	for _, text := range []string{`{name: 'f', arguments: {}}`, `{"\u006eame": "f", "arguments": {}}`, `{'tool': 'f'}`} {
		if _, ok := Read(text, 0, nil); !ok {
			t.Errorf("%s: not read as a call", text)
		}
	}
}
