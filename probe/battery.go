package probe

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/dialectkit/toolcall"
	"github.com/dialectkit/toolcall/schema"
)

// Battery is a set of prompts asked with the same declared tools.
type Battery struct {
	// System is the system message every prompt is sent with; in the
	// prompted modes the tools are presented after it.
	System string `json:"system"`
	// Tools are the declared tools, in any shape toolcall.ParseTools reads.
	Tools []toolcall.Tool `json:"-"`
	// Prompts are asked one after the other, each in a fresh conversation.
	Prompts []Prompt `json:"prompts"`

	set *schema.Set
}

// Prompt is one question of a battery and what a good answer calls.
type Prompt struct {
	// ID names the prompt in the report ("single", "nested", …).
	ID string `json:"id"`
	// Kind says what the prompt tests ("parallel calls").
	Kind string `json:"kind,omitempty"`
	// Text is the user message.
	Text string `json:"prompt"`
	// Expect are the calls a good answer makes, in any order; empty means
	// no call is wanted. The arguments of each are a subset the call's
	// arguments must contain (strings compared without case or surrounding
	// space, numbers by value, arrays in any order).
	Expect []ExpectedCall `json:"expect"`
}

// ExpectedCall is one call a prompt expects.
type ExpectedCall struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
}

// WantsCall reports whether the prompt expects at least one call.
func (p *Prompt) WantsCall() bool { return len(p.Expect) > 0 }

// ExpectedNames returns the names of the expected calls, sorted.
func (p *Prompt) ExpectedNames() []string {
	names := make([]string, len(p.Expect))
	for i, e := range p.Expect {
		names[i] = e.Name
	}
	slices.Sort(names)
	return names
}

//go:embed battery.json
var defaultBattery []byte

// DefaultBattery returns the built-in battery: a single call, parallel
// calls, nested and typed arguments, no call wanted, a long string
// argument, and a tool whose name needs care (a hyphen, which pythonic
// dialects cannot write as an identifier), over four tools.
func DefaultBattery() *Battery {
	b, err := ParseBattery(defaultBattery)
	if err != nil {
		panic("probe: the built-in battery is invalid: " + err.Error())
	}
	return b
}

// DefaultBatteryJSON returns the built-in battery as JSON, to start a
// battery of one's own from.
func DefaultBatteryJSON() []byte { return bytes.Clone(defaultBattery) }

// ParseBattery reads a battery: {"system": …, "tools": [...], "prompts":
// [{"id", "kind", "prompt", "expect": [{"name", "arguments"}]}]}. Every
// prompt needs a unique id and text, and every expected call a declared
// tool. Errors are TLP-016 (or TLP-017 for a tool definition).
func ParseBattery(data []byte) (*Battery, error) {
	var raw struct {
		System  string          `json:"system"`
		Tools   json.RawMessage `json:"tools"`
		Prompts []Prompt        `json:"prompts"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, toolcall.Errorf(toolcall.CodeInvalidInput, err, "the battery is not a JSON object of system, tools and prompts")
	}
	tools, err := toolcall.ParseTools(raw.Tools)
	if err != nil {
		return nil, err
	}
	if len(tools) == 0 {
		return nil, toolcall.NewError(toolcall.CodeInvalidInput, "the battery declares no tools")
	}
	set, err := schema.NewSet(tools...)
	if err != nil {
		return nil, err
	}
	if len(raw.Prompts) == 0 {
		return nil, toolcall.NewError(toolcall.CodeInvalidInput, "the battery has no prompts")
	}
	seen := map[string]bool{}
	for i, p := range raw.Prompts {
		switch {
		case strings.TrimSpace(p.ID) == "":
			return nil, toolcall.NewError(toolcall.CodeInvalidInput, fmt.Sprintf("prompt %d has no id", i))
		case seen[p.ID]:
			return nil, toolcall.NewError(toolcall.CodeInvalidInput, fmt.Sprintf("prompt id %q is used twice", p.ID))
		case strings.TrimSpace(p.Text) == "":
			return nil, toolcall.NewError(toolcall.CodeInvalidInput, fmt.Sprintf("prompt %q has no text", p.ID))
		}
		seen[p.ID] = true
		for j, e := range p.Expect {
			if _, ok := set.Lookup(e.Name); !ok {
				return nil, toolcall.NewError(toolcall.CodeInvalidInput,
					fmt.Sprintf("prompt %q expects call %d to %q, which the battery does not declare", p.ID, j, e.Name))
			}
			if len(e.Arguments) > 0 && !gjson.ValidBytes(e.Arguments) || len(e.Arguments) > 0 && !gjson.ParseBytes(e.Arguments).IsObject() {
				return nil, toolcall.NewError(toolcall.CodeInvalidInput,
					fmt.Sprintf("prompt %q expects call %d with arguments that are not a JSON object", p.ID, j))
			}
		}
	}
	return &Battery{System: raw.System, Tools: tools, Prompts: raw.Prompts, set: set}, nil
}

// MarshalJSON writes the battery in the form ParseBattery reads.
func (b *Battery) MarshalJSON() ([]byte, error) {
	tools := make([]json.RawMessage, len(b.Tools))
	for i, t := range b.Tools {
		data, err := t.MarshalOpenAI()
		if err != nil {
			return nil, err
		}
		tools[i] = data
	}
	return json.Marshal(struct {
		System  string            `json:"system"`
		Tools   []json.RawMessage `json:"tools"`
		Prompts []Prompt          `json:"prompts"`
	}{b.System, tools, b.Prompts})
}

// Set returns the battery's tools as a schema set.
func (b *Battery) Set() *schema.Set { return b.set }

// Prompt returns the prompt with the given id.
func (b *Battery) Prompt(id string) (*Prompt, bool) {
	for i := range b.Prompts {
		if b.Prompts[i].ID == id {
			return &b.Prompts[i], true
		}
	}
	return nil, false
}

// Match tells how calls compare with what a prompt expects.
type Match struct {
	// Names reports the same tool names, as a multiset.
	Names bool `json:"names"`
	// Arguments reports, in addition, that every expected call is matched
	// by a distinct call whose arguments contain the expected ones.
	Arguments bool `json:"arguments"`
}

// MatchCalls compares calls with the prompt's expectation.
func (p *Prompt) MatchCalls(calls []toolcall.Call) Match {
	names := make([]string, len(calls))
	for i, c := range calls {
		names[i] = c.Name
	}
	slices.Sort(names)
	m := Match{Names: slices.Equal(names, p.ExpectedNames())}
	if !m.Names {
		return m
	}
	used := make([]bool, len(calls))
	for _, e := range p.Expect {
		found := false
		for i, c := range calls {
			if used[i] || c.Name != e.Name {
				continue
			}
			if len(e.Arguments) == 0 || contains(gjson.ParseBytes(c.Arguments), gjson.ParseBytes(e.Arguments)) {
				used[i], found = true, true
				break
			}
		}
		if !found {
			return m
		}
	}
	m.Arguments = true
	return m
}

// contains reports whether got holds want: objects by subset, arrays with
// the same elements in any order, strings without case or surrounding
// space, numbers by value.
func contains(got, want gjson.Result) bool {
	switch {
	case want.IsObject():
		if !got.IsObject() {
			return false
		}
		ok := true
		want.ForEach(func(k, v gjson.Result) bool {
			ok = contains(got.Get(gjsonKey(k.Str)), v)
			return ok
		})
		return ok
	case want.IsArray():
		if !got.IsArray() {
			return false
		}
		g, w := got.Array(), want.Array()
		if len(g) != len(w) {
			return false
		}
		used := make([]bool, len(g))
		for _, wv := range w {
			found := false
			for i, gv := range g {
				if !used[i] && contains(gv, wv) {
					used[i], found = true, true
					break
				}
			}
			if !found {
				return false
			}
		}
		return true
	case want.Type == gjson.String:
		return got.Type == gjson.String && strings.EqualFold(strings.TrimSpace(got.Str), strings.TrimSpace(want.Str))
	case want.Type == gjson.Number:
		return got.Type == gjson.Number && math.Abs(got.Num-want.Num) < 1e-9
	}
	return got.Type == want.Type && got.Raw == want.Raw
}

// gjsonKey escapes a key for gjson's path syntax.
func gjsonKey(k string) string {
	var b strings.Builder
	for _, r := range k {
		if strings.ContainsRune(`\.*?|#@!:`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
