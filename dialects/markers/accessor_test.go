package markers_test

import (
	"reflect"
	"testing"

	"github.com/dialectkit/toolcall/dialects/markers"
)

// Descriptor returns the descriptor a dialect was built from, as a copy:
// a dialect rebuilt from it has the same markers, and changing the copy
// leaves the dialect alone.
func TestDescriptorAccessor(t *testing.T) {
	for _, d := range markers.All() {
		md := d.(*markers.Dialect)
		desc := md.Descriptor()
		if desc.Name != md.Name() {
			t.Errorf("%s: descriptor named %q", md.Name(), desc.Name)
		}
		again, err := markers.New(desc)
		if err != nil {
			t.Fatalf("%s: %v", md.Name(), err)
		}
		if !reflect.DeepEqual(again.Markers(), md.Markers()) {
			t.Errorf("%s: rebuilt markers %v, want %v", md.Name(), again.Markers(), md.Markers())
		}
		before := md.Descriptor()
		for i := range desc.Forms {
			desc.Forms[i].Start[0] = "changed"
		}
		if desc.Section != nil {
			desc.Section.Start[0] = "changed"
		}
		after := md.Descriptor()
		for i := range after.Forms {
			// Funcs are never DeepEqual; the header reader is not copied data.
			after.Forms[i].Header, before.Forms[i].Header = nil, nil
		}
		if !reflect.DeepEqual(after, before) {
			t.Errorf("%s: changing the copy changed the dialect", md.Name())
		}
	}
}
