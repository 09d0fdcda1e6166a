package dialects

import "testing"

func TestSplitReasoning(t *testing.T) {
	tests := []struct {
		name, in        string
		open            bool
		reasoning, rest string
	}{
		{"none", "plain answer", false, "", "plain answer"},
		{"block", "<think>\nplan\n</think>\n\nanswer", false, "plan", "answer"},
		{"close only", "plan</think>answer", false, "plan", "answer"},
		{"forced open without close", "still thinking", true, "still thinking", ""},
		{"forced open with close", "plan</think> answer", true, "plan", "answer"},
		{"unclosed", "before <think>half a thought", false, "half a thought", "before "},
		{"two blocks", "<think>a</think>x<think>b</think>y", false, "ab", "xy"},
		{"forced open keeps a nested open tag", "I'm <think>nested</think> more</think>end", true, "I'm <think>nested", "more</think>end"},
		{"not forced: first block is reasoning", "I'm <think>nested</think> more", false, "nested", "I'm more"},
		{"content between", "intro <think>r</think>\n outro", false, "r", "intro outro"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, rest := SplitReasoning(tt.in, ReasoningSplit{Tags: []ReasoningTags{Think}, StartsOpen: tt.open, Implicit: true})
			if r != tt.reasoning || rest != tt.rest {
				t.Errorf("SplitReasoning(%q) = (%q, %q), want (%q, %q)", tt.in, r, rest, tt.reasoning, tt.rest)
			}
		})
	}
}

func TestSplitReasoningWrappers(t *testing.T) {
	own := ReasoningTags{Open: "[THINK]", Close: "[/THINK]"}
	tags := []ReasoningTags{own, Think}
	tests := []struct {
		name, in        string
		open            bool
		reasoning, rest string
	}{
		{"none", "plain answer", false, "", "plain answer"},
		{"own wrapper", "[THINK]a[/THINK]b", false, "a", "b"},
		{"think wrapper", "<think>a</think>b", false, "a", "b"},
		{"in the order written", "<think>b</think>x [THINK]a[/THINK]y", false, "ba", "x y"},
		{"the other order", "[THINK]a[/THINK]x <think>b</think>y", false, "ab", "x y"},
		{"own close only", "plan[/THINK]answer", false, "plan", "answer"},
		{"think close only", "plan</think>answer", false, "plan", "answer"},
		{"forced open is the family's own wrapper", "plan[/THINK] <think>more</think>answer", true, "planmore", "answer"},
		{"unclosed", "x <think>half", false, "half", "x "},
		{"a wrapper inside another is text", "[THINK]a <think>b</think> c[/THINK]d", false, "a <think>b</think> c", "d"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, rest := SplitReasoning(tt.in, ReasoningSplit{Tags: tags, StartsOpen: tt.open, Implicit: true})
			if r != tt.reasoning || rest != tt.rest {
				t.Errorf("SplitReasoning(%q) = (%q, %q), want (%q, %q)", tt.in, r, rest, tt.reasoning, tt.rest)
			}
		})
	}
}

// TestImplicitReasoning pins what settles whether a closing tag with no
// opening one ends a block the template opened: the caller's option
// first, then the dialect's family, then the output's first bytes.
func TestImplicitReasoning(t *testing.T) {
	open, closed, unknown := &Options{ReasoningOpen: true}, &Options{ReasoningClosed: true}, &Options{}
	both := &Options{ReasoningOpen: true, ReasoningClosed: true}
	marked := &Syntax{Starts: []string{"<tool_call>"}, Bare: "{["}
	family := &Syntax{Starts: []string{"<tool_call>"}, ReasoningClosed: true}
	answer := &Syntax{Starts: []string{"<tool_call>"}, Answer: []string{"<|answer|>"}}
	ownWrapper := &Syntax{Starts: []string{"[TOOL_CALLS]"}, Reasoning: []ReasoningTags{{Open: "[THINK]", Close: "[/THINK]"}, Think}}
	for _, tt := range []struct {
		name string
		text string
		syn  *Syntax
		opts *Options
		want bool
	}{
		{"the template opened one", "<tool_call>{}</tool_call></think>", family, open, true},
		{"ReasoningOpen wins over ReasoningClosed", "a</think>b", marked, both, true},
		{"the template opened none", "a</think>b", marked, closed, false},
		{"unknown: text first", "a</think>b", marked, unknown, true},
		{"unknown: nil options", "a</think>b", marked, nil, true},
		{"unknown: a family whose templates open none", "a</think>b", family, unknown, false},
		{"unknown: a call first", "\n <TOOL_CALL>{}</tool_call></think>b", marked, unknown, false},
		{"unknown: a bare call first", "[{\"name\": \"f\"}]</think>b", marked, unknown, false},
		{"unknown: text, then a call", "Sure. <tool_call>{}</tool_call></think>b", marked, unknown, true},
		{"unknown: a marker cut short", "<tool_ca</think>b", marked, unknown, true},
		{"unknown: another wrapper's opening tag first", "<think>a</think>b [/THINK]c", ownWrapper, unknown, false},
		{"unknown: another wrapper's closing tag first", "a[/THINK]b <think>c</think>", ownWrapper, unknown, true},
		{"unknown: the answer's token first", " <|answer|>a</think>b", answer, unknown, false},
		{"unknown: the answer's token after text", "a<|answer|></think>b", answer, unknown, true},
		{"no text nor syntax: a closing tag ends a block", "", nil, unknown, true},
		{"no text nor syntax, nil options", "", nil, nil, true},
		{"no text nor syntax: the template opened none", "", nil, closed, false},
		{"no text nor syntax: ReasoningOpen wins", "", nil, both, true},
	} {
		if got := ImplicitReasoning(tt.text, tt.syn, tt.opts); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestTemplateBlockEnd pins where the block the template opened ends: past
// the first closing tag, when the template opened it (startsOpen) or a
// closing tag comes before any opening one (implicit); nowhere when no
// closing tag follows, or when the text's first block is written whole.
func TestTemplateBlockEnd(t *testing.T) {
	think := []ReasoningTags{Think}
	own := []ReasoningTags{{Open: "[THINK]", Close: "[/THINK]"}, Think}
	tests := []struct {
		name               string
		in                 string
		tags               []ReasoningTags
		startsOpen, implic bool
		want               int
	}{
		{"open, closed", "draft <call/> no.</think>answer", think, true, true, len("draft <call/> no.</think>")},
		{"implicit, closed", "draft <call/> no.</think>answer", think, false, true, len("draft <call/> no.</think>")},
		{"open, never closed", "draft <call/>", think, true, true, 0},
		{"settled outside", "draft <call/> no.</think>answer", think, false, false, 0},
		{"explicit block first", "<think>a</think> <call/> b</think>", think, false, true, 0},
		{"open, explicit tag repeated", "<think>a <call/></think>b", think, true, true, len("<think>a <call/></think>")},
		{"the later of the wrappers' first closes", "a</think> b[/THINK] c", own, false, true, len("a</think> b[/THINK]")},
		{"own wrapper opened by the template", "a [/THINK] b", own, true, false, len("a [/THINK]")},
	}
	for _, tt := range tests {
		if got := TemplateBlockEnd(tt.in, tt.tags, tt.startsOpen, tt.implic); got != tt.want {
			t.Errorf("%s: TemplateBlockEnd(%q) = %d, want %d", tt.name, tt.in, got, tt.want)
		}
	}
}
