package codemode_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dialectkit/toolcall/codemode"
	"github.com/dialectkit/toolcall/internal/longtest"
)

// want is one expected block: its code and whether it is fenced.
type want struct {
	code   string
	fenced bool
	lang   string
	min    float64 // lowest acceptable confidence
	max    float64 // highest acceptable confidence (0: 1)
}

func TestDetectCode(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		tools []string
		want  []want
	}{
		// Prose that mentions code is not code.
		{name: "prose mentioning calls", text: "I think you should use print() for that. For example, the function len(x) returns a length."},
		{name: "prose with inline code", text: "Call `get_weather(city=\"Paris\")` and then `print(result)` to see it."},
		{name: "prose with keywords", text: "import the module first, then\nfor each item in the list, return the value.\nif you want, try again.\nfrom here it is easy."},
		{name: "prose heading and note", text: "# Steps\nNote: this is it\nAnswer: x = 5\nStep 1: install it\nThanks"},
		{name: "prose single words", text: "Yes\n\nDone\n\nhello\n"},
		{name: "prose with apostrophes", text: "Here's what I'd do:\nit's simple, don't worry."},
		{name: "equation in prose", text: "We know that\n1 + 1 = 2\nand x + y = z.\n"},
		{name: "return outside a function", text: "return value\n"},
		{name: "break outside a loop", text: "break\n"},
		{name: "shell in unlabelled fence", text: "Run:\n```\nls -la\n```\n"},
		{name: "shell commands", text: "```\npip install requests\ncd /tmp\n```"},
		{name: "json in unlabelled fence", text: "```\n{\"city\": \"Paris\", \"days\": [1, 2]}\n```"},
		{name: "javascript with const", text: "```\nconst x = 1;\nconsole.log(x);\n```"},
		{name: "other language fence", text: "```bash\nx=1\necho $x\n```\n```json\n{\"a\": 1}\n```"},
		{name: "empty python fence", text: "```python\n\n```"},
		// Pythonic tool calls are calls, not code.
		{name: "pythonic call list no tools", text: "[get_weather(city='Paris'), get_time()]"},
		{name: "pythonic call list declared", text: "[get_weather(city='Paris')]", tools: []string{"get_weather"}},
		{name: "pythonic call line declared", text: "get_weather(city='Paris')\nget_time()", tools: []string{"get_weather", "get_time"}},
		{name: "pythonic call in python fence", text: "```python\n[get_weather(city='Paris')]\n```", tools: []string{"get_weather"}},
		{name: "pythonic calls after prose", text: "Let me check.\n[get_weather(city='Paris', unit='celsius'), get_time()]", tools: []string{"get_weather", "get_time"}},
		{
			name: "undeclared call in python fence is code", text: "```python\nprint(get_weather(city='Paris'))\n```", tools: []string{"get_weather"},
			want: []want{{code: "print(get_weather(city='Paris'))\n", fenced: true, lang: "python", min: 0.95}},
		},
		// Code.
		{
			name: "labelled fence", text: "Here's the code:\n\n```python\nimport os\nprint(os.getcwd())\n```\nThat prints the directory.",
			want: []want{{code: "import os\nprint(os.getcwd())\n", fenced: true, lang: "python", min: 0.95}},
		},
		{
			name: "py fence with info", text: "```py title=\"x.py\"\nx = 1\n```",
			want: []want{{code: "x = 1\n", fenced: true, lang: "py", min: 0.95}},
		},
		{
			name: "tilde fence", text: "~~~python\nfor i in range(3):\n    print(i)\n~~~",
			want: []want{{code: "for i in range(3):\n    print(i)\n", fenced: true, lang: "python", min: 0.95}},
		},
		{
			name: "labelled fence that does not parse", text: "```python\nprint \"hello\"\n```",
			want: []want{{code: "print \"hello\"\n", fenced: true, lang: "python", min: 0.5, max: 0.7}},
		},
		{
			name: "unclosed labelled fence", text: "```python\ndef f():\n    return 1\n",
			want: []want{{code: "def f():\n    return 1\n", fenced: true, lang: "python", min: 0.95}},
		},
		{
			name: "unlabelled fence", text: "```\nresult = compute(3)\nprint(result)\n```",
			want: []want{{code: "result = compute(3)\nprint(result)\n", fenced: true, min: 0.7, max: 0.9}},
		},
		{
			name: "bare code between prose", text: "Sure! Run this:\n\nimport math\nx = math.sqrt(2)\nprint(x)\n\nThis computes the root.",
			want: []want{{code: "import math\nx = math.sqrt(2)\nprint(x)", min: 0.8}},
		},
		{
			name: "bare function then prose", text: "def add(a, b):\n    return a + b\n\nThis adds two numbers.",
			want: []want{{code: "def add(a, b):\n    return a + b", min: 0.5}},
		},
		{
			name: "bare single call is not enough", text: "print('hello')",
		},
		{
			name: "mixed answer", text: "First I fetch the data.\n[fetch(url='https://example.com')]\nThen process it:\n```python\ndata = load()\nfor row in data:\n    total += row.value\n```\nDone.",
			tools: []string{"fetch"},
			want:  []want{{code: "data = load()\nfor row in data:\n    total += row.value\n", fenced: true, lang: "python", min: 0.95}},
		},
		{
			name: "two fences and bare code", text: "```python\na = 1\n```\ntext\n```\nb = [i * 2 for i in range(10)]\n```\nimport sys\nsys.exit(0)\n",
			want: []want{
				{code: "a = 1\n", fenced: true, lang: "python", min: 0.95},
				{code: "b = [i * 2 for i in range(10)]\n", fenced: true, min: 0.5},
				{code: "import sys\nsys.exit(0)", min: 0.5},
			},
		},
		{
			name: "code in reasoning is not reported", text: "<think>maybe\nimport os\nos.remove(x)\n</think>The answer is 4.",
		},
		{
			name: "grammar coverage", text: "```\n" + grammarSample + "```",
			want: []want{{code: grammarSample, fenced: true, min: 0.85}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := codemode.Detect(tt.text, &codemode.Options{Tools: tt.tools})
			if len(got) != len(tt.want) {
				t.Fatalf("got %d blocks, want %d: %+v", len(got), len(tt.want), got)
			}
			for i, w := range tt.want {
				b := got[i]
				if b.Code != w.code || tt.text[b.Start:b.End] != b.Code {
					t.Errorf("block %d: code %q [%d:%d], want %q", i, b.Code, b.Start, b.End, w.code)
				}
				if b.Fenced != w.fenced || b.Language != w.lang {
					t.Errorf("block %d: fenced %v lang %q, want %v %q", i, b.Fenced, b.Language, w.fenced, w.lang)
				}
				hi := w.max
				if hi == 0 {
					hi = 1
				}
				if b.Confidence < w.min || b.Confidence > hi {
					t.Errorf("block %d: confidence %v, want [%v, %v]", i, b.Confidence, w.min, hi)
				}
			}
		})
	}
}

// grammarSample exercises the statement and expression grammar.
const grammarSample = `from __future__ import annotations
from . import sibling
from ..pkg import (a as b, c,)
import os.path as osp, sys

@decorator(arg=1)
@other
class Point[T](Base, metaclass=Meta):
    """Docstring
    over lines."""
    x: int = 0
    y: list[int]

    def __init__(self, x: int = 0, /, *args: str, y=1, **kw) -> None:
        self.x, self.y = x, y
        super().__init__(*args, **kw)

    async def run(self):
        async with lock as l, other() as (a, b):
            result = [await f(v) async for v in self.items() if v]
        async for item in stream:
            yield item
        return result

def f(a, b=2, *, c, **kw):
    global counter
    counter += 1
    if a and not b or c is not None:
        return a if b else c
    elif a in b and c not in kw:
        pass
    else:
        while True:
            try:
                x = risky()
            except (ValueError, KeyError) as e:
                raise RuntimeError("bad") from e
            except* OSError:
                continue
            else:
                break
            finally:
                del x
    lam = lambda x, y=1, *a, **k: x ** -y // 2 % 3 @ m
    s = a[1:2, ::3, ...]
    d = {**kw, 'k': [1, 2.5e-3, 0x_ff, 0o17, 0b1, 3j, 1_000], (1,): {1, 2}}
    g = (x for x in range(10) if x % 2)
    w = {k: v for k, v in d.items()}
    if (n := len(s)) > 10:
        assert n, "message"
    t = f"{a!r:>10}" rb'raw' b"bytes" u'uni'
    match command.split():
        case [action]:
            pass
        case [action, obj] if obj:
            pass
        case Point(x=0, y=0) | {"k": 1, **rest}:
            pass
        case _:
            pass
    x = 1; y = 2;
    return ~x << 2 >> 1 | y ^ 3 & 4

type Alias[K] = dict[K, int]
with (open("a") as fa, open("b") as fb):
    data = fa.read() \
        + fb.read()
print(*data, sep="", end="\n")
`

// TestStatementGrammar checks single statements one by one: each valid one
// is recognised, each invalid one refused, in an unlabelled fence.
func TestStatementGrammar(t *testing.T) {
	valid := []string{
		"x = 1", "x = y = 2", "a, *b = c", "x.y[0] = 1", "x += 1", "x: int = 1", "import a.b.c",
		"from a import *", "def f(): pass", "class A: pass", "for i in x: pass", "while x: x -= 1",
		"with a: pass", "try:\n    pass\nfinally:\n    pass", "if x:\n    y = 1\nelse:\n    y = 2",
		"def f():\n    yield from g()", "async def f():\n    await g()", "f(x for x in y)",
		"x = not y", "x = a if b else c", "x = [*a, *b]", "x = (a)",
		"x = 'a' 'b'", "x = ...", "x = a[:]", "x = {}", "print(1)\nprint(2)", "nonlocal_ = 1",
	}
	invalid := []string{
		"x = ", "def f(:\n    pass", "f() = 1", "1 = x", "x + 1 = 2", "return 1", "yield 1", "break",
		"if x\n    pass", "for x y: pass", "x = (1, 2", "x = [1, 2)", "class : pass", "import", "from import x",
		"x = 'unterminated", "def f():\nreturn 1", "if x:\n        a = 1\n    b = 2", "try:\n    pass",
		"x = 1 +", "a b c", "x = lambda", "x = (yield)", "print \"x\"", "x === y", "x = $y", "f(**)",
	}
	for _, src := range valid {
		text := "```\n" + src + "\n```"
		if got := codemode.Detect(text, &codemode.Options{}); len(got) != 1 {
			t.Errorf("valid %q: got %+v", src, got)
		}
	}
	for _, src := range invalid {
		text := "```\n" + src + "\n```"
		if got := codemode.Detect(text, &codemode.Options{}); len(got) != 0 {
			t.Errorf("invalid %q: got %+v", src, got)
		}
		text = "```python\n" + src + "\n```"
		if got := codemode.Detect(text, &codemode.Options{}); len(got) != 1 || got[0].SyntaxError < 0 {
			t.Errorf("invalid %q in a python fence: got %+v, want a block with its syntax error", src, got)
		}
	}
}

func TestSyntaxErrorOffset(t *testing.T) {
	text := "Text.\n```python\nx = 1\ny = (2,\n```"
	got := codemode.DetectCode(text)
	if len(got) != 1 {
		t.Fatalf("got %+v", got)
	}
	if got[0].SyntaxError < got[0].Start || got[0].SyntaxError > got[0].End {
		t.Errorf("syntax error at %d, outside the block [%d:%d]", got[0].SyntaxError, got[0].Start, got[0].End)
	}
}

func TestMinConfidence(t *testing.T) {
	text := "```python\nimport os\n```\nx = 5\n"
	if got := codemode.Detect(text, &codemode.Options{}); len(got) != 2 {
		t.Fatalf("got %+v", got)
	}
	got := codemode.Detect(text, &codemode.Options{MinConfidence: 0.9})
	if len(got) != 1 || got[0].Language != "python" {
		t.Fatalf("got %+v", got)
	}
}

// TestHostileInput: text built to make every line start a long failed
// parse (unterminated triple quotes, open brackets) is read in bounded
// work.
func TestHostileInput(t *testing.T) {
	size := 64 << 10
	if longtest.Enabled() {
		size = 1 << 20
	}
	shapes := map[string]string{
		"triple quotes": "x = \"\"\"\n",
		"open brackets": "f(\n",
		"deep nesting":  strings.Repeat("(", 150) + "\n",
		"long line":     "x = " + strings.Repeat("a + ", 1000) + "\n",
		"code lines":    "x = 1\n",
		"prose":         "Here's a line of prose, with (brackets and 'quotes.\n",
		"indents":       "if x:\n    if y:\n        if z:\n",
	}
	for name, unit := range shapes {
		t.Run(name, func(t *testing.T) {
			text := strings.Repeat(unit, size/len(unit)+1)
			start := time.Now()
			codemode.DetectCode(text)
			codemode.DetectCode("```\n" + text + "\n```")
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %v for %d bytes", d, len(text))
			}
		})
	}
}

func Example() {
	answer := "I'll compute it:\n\n```python\nimport math\nprint(math.sqrt(2))\n```\n\nThen report back."
	for _, b := range codemode.DetectCode(answer) {
		fmt.Printf("%d-%d %s %.2f\n%s", b.Start, b.End, b.Language, b.Confidence, b.Code)
	}
	// Output:
	// 28-60 python 0.99
	// import math
	// print(math.sqrt(2))
}

func ExampleDetect() {
	// A list of calls of declared tools is a pythonic tool call, not code.
	answer := "[get_weather(city='Paris')]"
	fmt.Println(len(codemode.Detect(answer, &codemode.Options{Tools: []string{"get_weather"}})))
	// Output: 0
}

func FuzzDetectCode(f *testing.F) {
	f.Add("```python\nimport os\n```\nx = 1\n")
	f.Add("def f():\n    return 1\n\nprose")
	f.Add("[f(a=1)]")
	f.Add("<think>x = 1\n</think>y = 2\nz = 3\n")
	f.Add(grammarSample)
	f.Fuzz(func(t *testing.T, text string) {
		for _, b := range codemode.Detect(text, &codemode.Options{Tools: []string{"f"}}) {
			if b.Start < 0 || b.End > len(text) || b.Start > b.End || text[b.Start:b.End] != b.Code {
				t.Fatalf("block [%d:%d] %q out of place", b.Start, b.End, b.Code)
			}
			if b.Confidence <= 0 || b.Confidence > 1 {
				t.Fatalf("confidence %v", b.Confidence)
			}
			if b.SyntaxError >= 0 && (b.SyntaxError < b.Start || b.SyntaxError > b.End) {
				t.Fatalf("syntax error at %d outside [%d:%d]", b.SyntaxError, b.Start, b.End)
			}
		}
	})
}

func TestFenceInListItem(t *testing.T) {
	text := "Steps:\n1. Install it.\n2. Run this:\n   ```python\n   import os\n   for f in os.listdir('.'):\n       print(f)\n   ```\n3. Done.\n"
	got := codemode.DetectCode(text)
	if len(got) != 1 || got[0].SyntaxError >= 0 || got[0].Confidence < 0.95 || !strings.HasPrefix(got[0].Code, "   import os\n") {
		t.Fatalf("got %+v", got)
	}
	// Deeper indentation inside the body is Python's own.
	text = "- item\n    ```\n    def f():\n        return 1\n    ```\n"
	got = codemode.DetectCode(text)
	if len(got) != 1 || got[0].Statements != 2 {
		t.Fatalf("got %+v", got)
	}
}

func TestIsPython(t *testing.T) {
	for _, tc := range []struct {
		code string
		want bool
	}{
		{"import math\nprint(math.sqrt(2))", true},
		{"x = 1\nfor i in range(3):\n    x += i", true},
		{"brave_search.call(query=\"a\")\nI will tell you the result soon.", false},
		{"print(1", false},
		{"I will check the weather for you.", false},
		{"", false},
	} {
		if got := codemode.IsPython(tc.code); got != tc.want {
			t.Errorf("IsPython(%q) = %v, want %v", tc.code, got, tc.want)
		}
	}
}
