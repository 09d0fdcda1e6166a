package registry

import (
	"testing"

	"github.com/dialectkit/toolcall/dialects/harmony"
	"github.com/dialectkit/toolcall/dialects/hermes"
)

// A model's dialect is worked out once per name; a rule or a dialect
// added later is seen by the next look-up.
func TestModelDialectMemoFollowsChanges(t *testing.T) {
	r := New(hermes.Dialect)
	r.AddModelRule(ModelRule{Pattern: "acme", Dialect: "hermes"})
	if d, p := r.modelDialect("acme-gpt:7b"); d != "hermes" || p != "acme" {
		t.Fatalf("modelDialect = %q, %q; want hermes, acme", d, p)
	}
	if d, _ := r.modelDialect("acme-gpt:7b"); d != "hermes" {
		t.Fatalf("second look-up = %q, want hermes", d)
	}
	// A longer pattern naming a dialect not yet registered gives nothing
	// until the dialect is.
	r.AddModelRule(ModelRule{Pattern: "acme-gpt", Dialect: harmony.Dialect.Name()})
	if d, _ := r.modelDialect("acme-gpt:7b"); d != "hermes" {
		t.Fatalf("with the rule's dialect unregistered = %q, want hermes", d)
	}
	if err := r.Register(harmony.Dialect); err != nil {
		t.Fatal(err)
	}
	if d, p := r.modelDialect("acme-gpt:7b"); d != harmony.Dialect.Name() || p != "acme-gpt" {
		t.Fatalf("after Register = %q, %q; want %s, acme-gpt", d, p, harmony.Dialect.Name())
	}
	if d, _ := r.modelDialect("other"); d != "" {
		t.Fatalf("unmatched model = %q", d)
	}
	for i := 0; i < modelMemoSize+10; i++ {
		r.modelDialect(string(rune('a'+i%26)) + "-" + string(rune(i)))
	}
	if len(r.modelMemo) > modelMemoSize {
		t.Fatalf("memo holds %d names, bound %d", len(r.modelMemo), modelMemoSize)
	}
}

// A template's dialects are worked out once per template; a template
// rule added later is seen by the next look-up, and what
// DialectsForTemplate returns is the caller's.
func TestTemplateDialectsMemoFollowsChanges(t *testing.T) {
	r := New(hermes.Dialect, harmony.Dialect)
	const tmpl = "{{ .System }} <acme_call> {{ .Prompt }}"
	if ds := r.DialectsForTemplate(tmpl); len(ds) != 0 {
		t.Fatalf("no rule yet: %q", ds)
	}
	r.AddTemplateRule(TemplateRule{All: []string{"<acme_call>"}, Dialect: "hermes"})
	ds := r.DialectsForTemplate(tmpl)
	if len(ds) == 0 || ds[0] != "hermes" {
		t.Fatalf("after the rule: %q, want hermes first", ds)
	}
	ds[0] = "changed by the caller"
	if ds := r.templateDialects(tmpl); len(ds) == 0 || ds[0] != "hermes" {
		t.Fatalf("the caller's slice reached the memo: %q", ds)
	}
	r.AddTemplateRule(TemplateRule{All: []string{"<acme_call>"}, Dialect: harmony.Dialect.Name()})
	if ds := r.DialectsForTemplate(tmpl); len(ds) == 0 || ds[0] != harmony.Dialect.Name() {
		t.Fatalf("after the second rule: %q, want %s first", ds, harmony.Dialect.Name())
	}
}
