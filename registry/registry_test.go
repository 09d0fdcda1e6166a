package registry_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/plainjson"
	"github.com/dialectkit/toolcall/internal/jsonscan"
	"github.com/dialectkit/toolcall/registry"
	"github.com/dialectkit/toolcall/schema"
)

// tagged is a test dialect: MARKER followed by a call object.
type tagged struct{ name, marker string }

func (d tagged) Name() string      { return d.name }
func (d tagged) Markers() []string { return []string{d.marker} }
func (d tagged) Extract(text string, opts *dialects.Options) *dialects.Extraction {
	ext := &dialects.Extraction{Content: text}
	i := strings.Index(text, d.marker)
	if i < 0 {
		return ext
	}
	ext.Marked = true
	ext.Content = strings.TrimSpace(text[:i])
	start := i + len(d.marker)
	end, _ := jsonscan.ValueEnd(text, start)
	if rc, ok := callObject(text[start:end], start); ok && start < len(text) && text[start] == '{' {
		ext.Calls = append(ext.Calls, rc)
	} else {
		ext.Calls = append(ext.Calls, dialects.RawCall{Err: toolcall.NewError(toolcall.CodeMalformedCall, "no call object after the marker"), Offset: i})
	}
	return ext
}

// callObject reads a call object as a dialect of one's own may: a JSON
// object with a name and arguments.
func callObject(obj string, offset int) (dialects.RawCall, bool) {
	v := gjson.Parse(obj)
	name := v.Get("name")
	if !v.IsObject() || name.Type != gjson.String {
		return dialects.RawCall{}, false
	}
	return dialects.RawCall{Name: name.Str, Arguments: v.Get("arguments").Raw, Offset: offset}, true
}

func newTestRegistry(t *testing.T) *registry.Registry {
	t.Helper()
	r := registry.New(tagged{"alpha", "<A>"}, tagged{"beta", "<B>"}, plainjson.Dialect)
	r.AddModelRule(registry.ModelRule{Pattern: "alpha-model", Dialect: "alpha"})
	r.AddModelRule(registry.ModelRule{Pattern: "alpha-model-b", Dialect: "beta"})
	r.AddTemplateRule(registry.TemplateRule{All: []string{"<B>"}, Dialect: "beta"})
	return r
}

func TestRegisterAndLookup(t *testing.T) {
	r := newTestRegistry(t)
	if got := strings.Join(r.Names(), ","); got != "alpha,beta,json" {
		t.Errorf("Names = %s", got)
	}
	if d, ok := r.Lookup("beta"); !ok || d.Name() != "beta" {
		t.Error("Lookup(beta) failed")
	}
	if _, ok := r.Lookup("gamma"); ok {
		t.Error("Lookup(gamma) found something")
	}
	err := r.Register(tagged{"alpha", "<X>"})
	if !errors.Is(err, toolcall.ErrInvalidInput) {
		t.Errorf("duplicate Register err = %v", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("registry.Register of a duplicate name did not panic")
		}
	}()
	registry.Register(plainjson.Dialect)
}

func TestModelAndTemplateRules(t *testing.T) {
	r := newTestRegistry(t)
	if d, p := r.DialectForModel("Alpha_Model-B:7b"); d != "beta" || p != "alpha-model-b" {
		t.Errorf("longest pattern should win, got %s (%s)", d, p)
	}
	if d, _ := r.DialectForModel("alpha-model:latest"); d != "alpha" {
		t.Errorf("model rule: %s", d)
	}
	if d, _ := r.DialectForModel("unrelated"); d != "" {
		t.Errorf("no rule should match, got %s", d)
	}
	if got := r.DialectsForTemplate("{% if tools %}<B>{{ call }}{% endif %}"); len(got) != 1 || got[0] != "beta" {
		t.Errorf("template rules: %v", got)
	}
}

func TestDetect(t *testing.T) {
	set, err := schema.NewSet(toolcall.Tool{Name: "get_weather", Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}}}`)})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		text    string
		opts    registry.Options
		dialect string
		calls   int
		reason  string
	}{
		{name: "marker", text: `Sure. <B>{"name": "get_weather", "arguments": {"city": "Oslo"}}`, dialect: "beta", calls: 1, reason: `marker: saw "<B>"`},
		{name: "bare json", text: `{"name": "get_weather", "arguments": {"city": "Oslo"}}`, dialect: "json", calls: 1},
		{name: "plain prose", text: "It is sunny in Oslo.", dialect: "", calls: 0, reason: "no dialect recognised the output"},
		{name: "marker beats marker-less parse of the same object", text: `<A>{"name": "get_weather", "arguments": {"city": "Oslo"}}`, dialect: "alpha", calls: 1},
		{name: "valid call beats a failing marker", text: `<A>{"arguments": {}} <B>{"name": "get_weather", "arguments": {}}`, dialect: "beta", calls: 1},
		{name: "hint", text: `<B>{"name": "get_weather", "arguments": {}}`, opts: registry.Options{Dialect: "alpha"}, dialect: "alpha", calls: 0, reason: "named by the caller"},
		{name: "model evidence breaks a tie", text: "no call here", opts: registry.Options{Model: "alpha-model"}, dialect: "alpha", calls: 0, reason: "model: model name matches"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newTestRegistry(t)
			opts := tt.opts
			opts.Tools = set
			res, det := r.ParseDetect(tt.text, &opts)
			if det.Dialect != tt.dialect || res.Dialect != tt.dialect {
				t.Errorf("dialect = %q (result %q), want %q; candidates %+v", det.Dialect, res.Dialect, tt.dialect, det.Candidates)
			}
			if len(res.Calls) != tt.calls {
				t.Errorf("calls = %d, want %d (%v)", len(res.Calls), tt.calls, res.Errors)
			}
			if !strings.Contains(det.Reason, tt.reason) {
				t.Errorf("reason %q does not say %q", det.Reason, tt.reason)
			}
		})
	}
}

func TestUnknownDialectAndFallback(t *testing.T) {
	r := newTestRegistry(t)
	res := r.Parse("text", &registry.Options{Dialect: "nope"})
	if len(res.Errors) != 1 || res.Errors[0].Code != toolcall.CodeUnknownDialect || !strings.Contains(res.Errors[0].Message, "alpha") {
		t.Fatalf("errors = %v", res.Errors)
	}
	res = r.Parse(`{"name": "f", "arguments": {}}`, &registry.Options{Dialect: "alpha", Fallback: []string{"beta", "json"}})
	if res.Dialect != "json" || len(res.Calls) != 1 {
		t.Errorf("fallback: dialect %q, calls %v", res.Dialect, res.Calls)
	}
	// ParseDetect decides the same.
	res, det := r.ParseDetect(`{"name": "f", "arguments": {}}`, &registry.Options{Dialect: "alpha", Fallback: []string{"beta", "json"}})
	if res.Dialect != "json" || det.Dialect != "json" || len(res.Calls) != 1 {
		t.Errorf("fallback: dialect %q (detection %q), calls %v", res.Dialect, det.Dialect, res.Calls)
	}
	res = r.Parse(`{"name": "f", "arguments": {}}`, &registry.Options{Dialect: "alpha", Fallback: []string{"beta"}})
	if res.Dialect != "alpha" || len(res.Calls) != 0 {
		t.Errorf("no fallback finds a call: dialect %q, calls %v", res.Dialect, res.Calls)
	}
}

func TestConcurrentUse(t *testing.T) {
	r := newTestRegistry(t)
	done := make(chan struct{})
	for i := 0; i < 8; i++ {
		go func(i int) {
			defer func() { done <- struct{}{} }()
			for j := 0; j < 50; j++ {
				r.Parse(`<A>{"name": "f", "arguments": {"i": 1}}`, nil)
				r.Names()
				if j == 0 {
					_ = r.Register(tagged{name: "extra" + string(rune('a'+i)), marker: "<X>"})
				}
			}
		}(i)
	}
	for i := 0; i < 8; i++ {
		<-done
	}
}

// registry.Options holds every field of dialects.Options, so that one
// literal sets a whole parse, and DialectOptions and SetDialectOptions
// carry each of them.
func TestOptionsMirrorDialectOptions(t *testing.T) {
	dt, rt := reflect.TypeFor[dialects.Options](), reflect.TypeFor[registry.Options]()
	for f := range dt.Fields() {
		rf, ok := rt.FieldByName(f.Name)
		if !ok || rf.Type != f.Type {
			t.Errorf("registry.Options lacks dialects.Options.%s (%s)", f.Name, f.Type)
		}
	}
	// A dialects.Options with every field set survives the round trip.
	var d dialects.Options
	v := reflect.ValueOf(&d).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Pointer:
			f.Set(reflect.New(f.Type().Elem()))
		case reflect.Struct:
			// Set the struct's first settable field, enough to tell it from zero.
			for j := range f.NumField() {
				if g := f.Field(j); g.CanSet() && g.Kind() == reflect.Int {
					g.SetInt(7)
					break
				}
			}
		}
	}
	var o registry.Options
	o.SetDialectOptions(d)
	if got := o.DialectOptions(); !reflect.DeepEqual(got, d) {
		t.Errorf("round trip = %+v, want %+v", got, d)
	}
}
