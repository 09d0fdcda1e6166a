package lenient

import (
	"testing"

	"github.com/dialectkit/toolcall"
)

// peerCase is an input of a category other repair projects test, written
// here in our own words, and the value it means (compared as a value, not
// as text).
type peerCase struct {
	name string
	in   string
	want string
}

// peerCases cover the categories of other repairers' suites and of real
// model output, on inputs whose meaning is an object or an array.
var peerCases = []peerCase{
	// Missing quotes around keys and values.
	{"bare keys and a bare word", `{city: Paris, days: 3}`, `{"city":"Paris","days":3}`},
	{"bare key with digits", `{2024: "year"}`, `{"2024":"year"}`},
	{"bare key named like a literal", `{true: 1, null: 2}`, `{"true":1,"null":2}`},
	{"bare key with dollar and underscore", `{$ref: "#/a", _id: 7}`, `{"$ref":"#/a","_id":7}`},
	{"bare words in an array", `[apple, banana]`, `["apple","banana"]`},
	{"bare words on lines", "[\n  apple,\n  banana\n]", `["apple","banana"]`},
	{"bare value with spaces", "{\n  note: buy milk today\n}", `{"note":"buy milk today"}`},
	{"bare url value", `{url: https://example.org/a/b?x=1}`, `{"url":"https://example.org/a/b?x=1"}`},
	{"bare url in an array", `[https://example.org/, 2]`, `["https://example.org/",2]`},
	{"missing start quote of a value", `{"unit": celsius", "n": 2}`, `{"unit":"celsius","n":2}`},
	{"missing start quote in an array", `[first", "second"]`, `["first","second"]`},
	{"missing end quote before a brace", `{"unit": "celsius}`, `{"unit":"celsius"}`},
	{"missing end quote before the next key", `{"a": "x, y, "b": "z"}`, `{"a":"x, y","b":"z"}`},
	{"missing end quote at the end of a line", "{\n\"a\": \"foo\n\"b\": \"bar\"\n}", `{"a":"foo","b":"bar"}`},
	{"missing end quote at the end of an indented line", "{\n  \"path\": \"a.txt\n  \"mode\": \"w\",\n  \"n\": 1\n}", `{"path":"a.txt","mode":"w","n":1}`},
	{"raw json inside a string stays text", "{\"content\": \"{\n\"a\": 1\n}\"}", `{"content":"{\n\"a\": 1\n}"}`},
	{"missing end quote of a key", `{"path: "a.txt"}`, `{"path":"a.txt"}`},
	{"missing end quote in a nested array", `{"tags": ["x", "y]}`, `{"tags":["x","y"]}`},
	{"missing end quote then a comment", `["one", "two // note` + "\n" + `]`, `["one","two // note"]`},

	// Comments.
	{"block comment before", `/* args */ {"a": 1}`, `{"a":1}`},
	{"block comment after", `{"a": 1} /* done */`, `{"a":1}`},
	{"block comment between members", `{"a": 1, /* b next */ "b": 2}`, `{"a":1,"b":2}`},
	{"line comment before", "// the arguments\n{\"a\": 1}", `{"a":1}`},
	{"line comment after a value", "{\"a\": 1 // one\n, \"b\": 2}", `{"a":1,"b":2}`},
	{"hash comment in an array", "[1, # one\n 2]", `[1,2]`},
	{"comment markers inside a string stay", `{"glob": "src/**/*.go", "url": "http://x.org//y"}`, `{"glob":"src/**/*.go","url":"http://x.org//y"}`},
	{"unclosed block comment at the end", `{"a": 1} /* trailing`, `{"a":1}`},
	{"comment inside an array of objects", "[{\"a\": 1}, // second\n{\"a\": 2}]", `[{"a":1},{"a":2}]`},

	// Trailing and leading commas.
	{"trailing comma in nested array", `{"a": [1, 2,], "b": {"c": 3,},}`, `{"a":[1,2],"b":{"c":3}}`},
	{"trailing comma with spaces and newline", "[1, 2 ,\n ]", `[1,2]`},
	{"leading comma in an array", `[,1, 2]`, `[1,2]`},
	{"leading comma in an object", `{, "a": 1}`, `{"a":1}`},
	{"trailing comma then truncation", `{"a": 1,`, `{"a":1}`},

	// Truncation at every kind of point.
	{"cut after opening brace", `{`, `{}`},
	{"cut after opening bracket", `[`, `[]`},
	{"cut inside a key", `{"a": 1, "pa`, `{"a":1}`},
	{"cut after a key", `{"a": 1, "path"`, `{"a":1,"path":null}`},
	{"cut after a colon", `{"a": 1, "path":`, `{"a":1,"path":null}`},
	{"cut after a comma in an array", `[1, 2,`, `[1,2]`},
	{"cut inside a number", `{"n": 12`, `{"n":12}`},
	{"cut after a decimal point", `{"n": 2.`, `{"n":2}`},
	{"cut inside true", `{"ok": tr`, `{"ok":true}`},
	{"cut inside false in an array", `[false, fal`, `[false,false]`},
	{"cut inside null", `{"v": nu`, `{"v":null}`},
	{"cut inside a nested string", `{"a": {"b": ["c", "d`, `{"a":{"b":["c","d"]}}`},
	{"cut after a nested object", `[{"a": 1}, {"b": 2}`, `[{"a":1},{"b":2}]`},
	{"cut inside an escape", `{"s": "tab\`, `{"s":"tab"}`},
	{"cut after a minus", `[1, -`, `[1]`},
	{"cut deep", `{"a": [{"b": {"c": [1, {"d": "e`, `{"a":[{"b":{"c":[1,{"d":"e"}]}}]}`},
	{"cut inside the key after a string", `{"path": "a.txt", "con`, `{"path":"a.txt"}`},
	{"cut after the key after a string", `{"path": "a.txt", "content"`, `{"path":"a.txt","content":null}`},
	{"cut after the colon after a string", `{"path": "a.txt", "content": `, `{"path":"a.txt","content":null}`},
	{"cut inside a bare key after a string", `{path: "a.txt", mo`, `{"path":"a.txt"}`},
	{"cut inside a key after a single-quoted string", `{'mode': 'w', 'ta`, `{"mode":"w"}`},
	{"cut sentence keeps a quoted phrase", `{"text": "He said, "hello world`, `{"text":"He said, \"hello world"}`},
	{"cut after an inner quote keeps the word", `{"text": "He said "hi", then`, `{"text":"He said \"hi\", then"}`},
	{"cut after one letter of false", `{"append": f`, `{"append":false}`},
	{"cut after one letter of null", `[1, n`, `[1,null]`},
	{"cut inside None", `{'note': Non`, `{"note":null}`},
	{"cut tuple keeps an array", `{'lines': (1, `, `{"lines":[1]}`},
	{"cut inside the second half of a surrogate pair", `{"s": "x\ud83d\ude0`, `{"s":"x"}`},
	{"cut inside a surrogate pair escape", `{"s": "x\ud83d`, `{"s":"x"}`},

	// Python and JavaScript literals.
	{"python capitals", `{"a": True, "b": False, "c": None}`, `{"a":true,"b":false,"c":null}`},
	{"upper case literals", `{"a": TRUE, "b": FALSE, "c": NULL}`, `{"a":true,"b":false,"c":null}`},
	{"python dict with tuple", `{'point': (1, 2), 'ok': True}`, `{"point":[1,2],"ok":true}`},
	{"python raw string", `{'pattern': r'\d+\.\d+'}`, `{"pattern":"\\d+\\.\\d+"}`},
	{"python raw string keeps a backslash n", `{'p': r'C:\new'}`, `{"p":"C:\\new"}`},
	{"python byte, unicode and f-strings", `{'a': b'x', 'b': u"y", 'c': f'{z}'}`, `{"a":"x","b":"y","c":"{z}"}`},
	{"undefined in an array", `[undefined, 1]`, `[null,1]`},
	{"python list of dicts", `[{'name': 'a', 'on': False}, {'name': 'b', 'on': None}]`, `[{"name":"a","on":false},{"name":"b","on":null}]`},

	// Escapes.
	{"escaped apostrophe in single quotes", `{'msg': 'it\'s fine'}`, `{"msg":"it's fine"}`},
	{"escaped double quote in single quotes", `{'msg': 'say \"hi\"'}`, `{"msg":"say \"hi\""}`},
	{"raw tab and newline in a string", "{\"code\": \"if x:\n\treturn 1\"}", `{"code":"if x:\n\treturn 1"}`},
	{"unicode escape kept", `{"e": "caf\u00e9",}`, `{"e":"café"}`},
	{"escaped slash", `{'p': 'a\/b'}`, `{"p":"a/b"}`},
	{"whole document escaped", `{\"name\": \"read_file\", \"path\": \"a.txt\"}`, `{"name":"read_file","path":"a.txt"}`},
	{"escaped document in an array", `[\"a\", \"b\"]`, `["a","b"]`},
	{"double quote inside single-quoted value", `{'q': 'He said "no"'}`, `{"q":"He said \"no\""}`},

	// Concatenated strings.
	{"plus on one line", `{"s": "ab" + "cd"}`, `{"s":"abcd"}`},
	{"plus with comment between", `{"s": "ab" + /* more */ "cd"}`, `{"s":"abcd"}`},
	{"plus in an array", `["a" + "b", "c"]`, `["ab","c"]`},

	// Wrappers inside objects and around them.
	{"mongo ObjectId and ISODate", `{"_id": ObjectId("5f1d7a"), "at": ISODate("2024-01-02T03:04:05Z")}`, `{"_id":"5f1d7a","at":"2024-01-02T03:04:05Z"}`},
	{"mongo NumberLong", `{"n": NumberLong("42")}`, `{"n":"42"}`},
	{"mongo NumberInt unquoted", `{"n": NumberInt(42)}`, `{"n":42}`},
	{"jsonp wrapper", `callback({"a": 1});`, `{"a":1}`},
	{"jsonp wrapper with a comment", `/**/ cb_12({"a": [1]})`, `{"a":[1]}`},
	{"a call in text stays text", `{"cmd": print("hi")}`, `{"cmd":"print(\"hi\")"}`},
	{"regex literal value", `{"pattern": /^a+b$/}`, `{"pattern":"/^a+b$/"}`},

	// Special whitespace.
	{"no-break space between tokens", "{\"a\":\u00a0\"x\"}", `{"a":"x"}`},
	{"narrow no-break space", "{\"a\":\u202f1}", `{"a":1}`},
	{"medium mathematical space", "[\u205f1,\u205f2]", `[1,2]`},
	{"ideographic space around a colon", "{\"a\"\u3000:\u3000true}", `{"a":true}`},
	{"line separator between members", "{\"a\": 1,\u2028\"b\": 2}", `{"a":1,"b":2}`},
	{"byte order mark", "\ufeff{\"a\": 1,}", `{"a":1}`},
	{"carriage returns as layout", "{\r\n\"a\": 1,\r\n\"b\": 2,\r\n}", `{"a":1,"b":2}`},

	// Numbers in odd forms.
	{"hexadecimal", `{"mask": 0xFF}`, `{"mask":255}`},
	{"leading dot", `{"r": .25}`, `{"r":0.25}`},
	{"leading plus", `{"r": +3}`, `{"r":3}`},
	{"trailing dot", `{"r": 5.}`, `{"r":5}`},
	{"leading zero keeps digits", `{"code": 0042}`, `{"code":"0042"}`},
	{"two dots is text", `{"v": 1.2.3}`, `{"v":"1.2.3"}`},
	{"fraction is text", `{"v": 1/3}`, `{"v":"1/3"}`},
	{"range is text", `{"v": 10-20}`, `{"v":"10-20"}`},
	{"number then letters is text", `[1, 2abc]`, `[1,"2abc"]`},
	{"underscore separators", `{"n": 1_000_000}`, `{"n":1000000}`},
	{"exponent forms", `[1e3, 2E-2, 3e+1]`, `[1e3,2E-2,3e+1]`},
	{"negative leading dot", `[-.5]`, `[-0.5]`},

	// Ellipsis.
	{"ellipsis in the middle of an array", `[1, 2, ..., 9]`, `[1,2,9]`},
	{"ellipsis as a whole array", `{"items": [...]}`, `{"items":[]}`},
	{"ellipsis with trailing comma", `[1, ...,]`, `[1]`},
	{"quoted ellipsis stays", `["...", 1]`, `["...",1]`},
	{"ellipsis first in an array", `[..., 3]`, `[3]`},

	// Nested unclosed structures.
	{"unclosed array in object", `{"a": [1, 2, {"b": 3}`, `{"a":[1,2,{"b":3}]}`},
	{"unclosed object in array in object", "{\"rows\": [{\"id\": 1\n", `{"rows":[{"id":1}]}`},
	{"wrong closer order", `{"a": [1, 2}`, `{"a":[1,2]}`},
	{"extra closers at the end", `{"a": 1}}]`, `{"a":1}`},
	{"empty mismatched", `{]`, `{}`},
	{"array closed by brace", `[1, 2}`, `[1,2]`},
	{"array missing its closer before a member after a comma", `{"tags": ["x", "y", "path": "a.txt", "n": 2}`, `{"tags":["x","y"],"path":"a.txt","n":2}`},
	{"literals then a member of the outer object", `{"a": 1, "b": [true, false, "c": 3}`, `{"a":1,"b":[true,false],"c":3}`},
	{"member inside an array closed by its bracket", `{"rows": ["x", "k": 1]}`, `{"rows":["x",{"k":1}]}`},
	{"missing brace between objects", `[{"a": 1 {"b": 2}]`, `[{"a":1},{"b":2}]`},

	// A stray word before the object's closer.
	{"literal after a string before the closer", `{"name": "report" false}`, `{"name":"report"}`},
	{"shouted word after the last value", `{"ok": true, NOTE "msg": "done" END }`, `{"ok":true,"msg":"done"}`},
	{"word after a literal before the closer", `{"ok": true done}`, `{"ok":true}`},
	{"word after a nested string", `{"a": {"b": "c" d}, "e": 1}`, `{"a":{"b":"c"},"e":1}`},
	{"inner quotes then a word keep the text", `{"a": "He said "hi" there}`, `{"a":"He said \"hi\" there"}`},

	// Quotes where a key should be.
	{"stray quotes before a key", `{"id": 7, """" "name": "x"}`, `{"id":7,"name":"x"}`},
	{"stray string before a key", `{"a": 1, "note" "b": 2}`, `{"a":1,"b":2}`},
	{"doubled quotes around a key stay a key", `{""name"": "x"}`, `{"name":"x"}`},

	// Unescaped quotes inside strings.
	{"inches mark", `{"size": "a 24" screen"}`, `{"size":"a 24\" screen"}`},
	{"quoted word in the middle", `{"q": "the "best" one", "n": 1}`, `{"q":"the \"best\" one","n":1}`},
	{"quoted word at the end", `{"q": "call it "done""}`, `{"q":"call it \"done\""}`},
	{"quoted word at the start", `{"q": ""yes" she said"}`, `{"q":"\"yes\" she said"}`},
	{"html attribute quotes", `{"html": "<a href="x.html">x</a>"}`, `{"html":"<a href=\"x.html\">x</a>"}`},
	{"quotes and a comma inside", `{"q": "say "a, b" now", "n": 2}`, `{"q":"say \"a, b\" now","n":2}`},
	{"code with quotes", `{"code": "print("hello")"}`, `{"code":"print(\"hello\")"}`},
	{"array element with inner quotes", `["a "b" c", "d"]`, `["a \"b\" c","d"]`},

	// Markdown fences.
	{"fence with tag", "```json\n{\"a\": 1}\n```", `{"a":1}`},
	{"fence without tag", "```\n[1, 2]\n```", `[1,2]`},
	{"fence on one line", "```json{\"a\": 1}```", `{"a":1}`},
	{"fence never closed", "```json\n{\"a\": 1}\n", `{"a":1}`},
	{"fence with prose around", "Here it is:\n```json\n{\"a\": 1,}\n```\nLet me know.", `{"a":1}`},
	{"fence holding malformed json", "```json\n{'a': True}\n```", `{"a":true}`},
	{"fence tag in capitals", "```JSON\n{\"a\": 1}\n```", `{"a":1}`},

	// Single quotes and mixed.
	{"single quoted keys and values", `{'a': 'b', 'c': ['d', 'e']}`, `{"a":"b","c":["d","e"]}`},
	{"mixed quotes", `{"a": 'b', 'c': "d"}`, `{"a":"b","c":"d"}`},
	{"apostrophe in double quotes", `{"a": "it's"}`, `{"a":"it's"}`},
	{"apostrophe inside single quotes", `{'a': 'it's ok'}`, `{"a":"it's ok"}`},
	{"curly quotes", `{“name”: “Ann”, ‘city’: ‘Oslo’}`, `{"name":"Ann","city":"Oslo"}`},
	{"everything at once", "```json\n{name: 'x', // n\n 'tags': ['a', 'b',], ok: True, n: .5,}\n```", `{"name":"x","tags":["a","b"],"ok":true,"n":0.5}`},

	// Missing commas and colons.
	{"missing comma between members on lines", "{\n\"a\": 1\n\"b\": 2\n}", `{"a":1,"b":2}`},
	{"missing commas in numbers", `[1 2 3]`, `[1,2,3]`},
	{"missing comma after a nested object", `{"a": {"x": 1} "b": 2}`, `{"a":{"x":1},"b":2}`},
	{"missing comma after an array", `{"a": [1] "b": [2]}`, `{"a":[1],"b":[2]}`},
	{"missing colon before a string", `{"a" "b"}`, `{"a":"b"}`},
	{"missing colon before true", `{"a" true, "b" null}`, `{"a":true,"b":null}`},

	// Concatenated and newline-delimited values.
	{"ndjson objects", "{\"a\": 1}\n{\"a\": 2}\n", `[{"a":1},{"a":2}]`},
	{"two arrays", `[1][2]`, `[[1],[2]]`},

	// Real model output.
	{"prose then object", `Sure! Here are the arguments: {"city": "Oslo", "unit": "c"}`, `{"city":"Oslo","unit":"c"}`},
	{"object then prose", `{"city": "Oslo"} I hope this helps.`, `{"city":"Oslo"}`},
	{"code with braces in a string", `{"code": "func f() { return }", "lang": "go"}`, `{"code":"func f() { return }","lang":"go"}`},
	{"windows path with an unknown escape", `{"path": "C:\data\temp.txt"}`, `{"path":"C:\\data\\temp.txt"}`},
	{"markdown with a code block cut after it", "{\"md\": \"# T\n\n```python\nprint(1)\n```", "{\"md\":\"# T\\n\\n```python\\nprint(1)\\n```\"}"},
	{"fence closing the document after a cut string", "```json\n{\"a\": \"b\n```", `{"a":"b"}`},
	{"content ending in a newline then cut", "{\"path\": \"a.md\", \"content\": \"# Title\n\nBody\n", `{"path":"a.md","content":"# Title\n\nBody"}`},
	{"special token after the value", `{"a": 1}<|im_end|>`, `{"a":1}`},
	{"xml tag after the value", "{\"a\": 1}\n</tool_call>", `{"a":1}`},

	// Second batch: shapes of the peer suites in more detail.
	{"objects in an array without comma", `{"list": [{}{}]}`, `{"list":[{},{}]}`},
	{"objects in an array on lines", "{\"list\": [\n{}\n{}\n]}", `{"list":[{},{}]}`},
	{"literals in an array without commas", `[true false null]`, `[true,false,null]`},
	{"missing comma, last member bare", "{\"a\": 2\n\"b\": 3\nc: 4}", `{"a":2,"b":3,"c":4}`},
	{"missing comma between literals", `{"a": true "b": false}`, `{"a":true,"b":false}`},
	{"missing colon, single quotes", `{'a' 'b'}`, `{"a":"b"}`},
	{"missing colon, bare key", `{a 'b'}`, `{"a":"b"}`},
	{"missing colon, curly quotes", `{“a” “b”}`, `{"a":"b"}`},
	{"missing colon on lines", "{\n\"a\" \"b\"\n}", `{"a":"b"}`},
	{"bare words on lines in an array in an object", "{\"list\": [\na\nb\n]}", `{"list":["a","b"]}`},
	{"bare words with a line break for a comma", "[a,b\nc]", `["a","b","c"]`},
	{"numbers on lines in an array", "[1\n2\n3]", `[1,2,3]`},
	{"bare value followed by spaces", `{a : b  }`, `{"a":"b"}`},
	{"undefined member", `{"a": undefined}`, `{"a":null}`},
	{"version number is text", `[0.0.1, 2]`, `["0.0.1",2]`},
	{"uuid is text", `{"id": 746de9ad-d4ff-4c66-97d7-00a92ad46967}`, `{"id":"746de9ad-d4ff-4c66-97d7-00a92ad46967"}`},
	{"doubled dot is text", `{"v": 234..5}`, `{"v":"234..5"}`},
	{"fractional exponent is text", `{"v": 2e3.4}`, `{"v":"2e3.4"}`},
	{"regex with a dot", `{regex: /styles.css/}`, `{"regex":"/styles.css/"}`},
	{"escaped string with inner escaped quotes in an array", `[\"hello \\"world\\"\"]`, `["hello \"world\""]`},
	{"escaped object with inner escaped quotes", `{\"say\": \"hello \\"world\\"\"}`, `{"say":"hello \"world\""}`},
	{"redundant closers", `{"a": 1}}]}`, `{"a":1}`},
	{"redundant closers with spaces", `{"a": 1 }  }  ]  }  `, `{"a":1}`},
	{"bracket closing an object", `{"a": 2]`, `{"a":2}`},
	{"trailing comma and a wrong closer", `{"a": 2,]`, `{"a":2}`},
	{"brace closing an array", `[2,}`, `[2]`},
	{"empty brace closing an array", `[}`, `[]`},
	{"doubled closers", `{}}`, `{}`},
	{"cut after a key, nested", `{"a": {"b": 1, "c"`, `{"a":{"b":1,"c":null}}`},
	{"cut inside a unicode escape in an object", `{"foo": "bar\u20`, `{"foo":"bar"}`},
	{"cut with commas and apostrophes", `{"message": "with, multiple, comma's, you see?`, `{"message":"with, multiple, comma's, you see?"}`},
	{"cut after a comma in a sentence", `{"text": "Hello Sergey,I hop`, `{"text":"Hello Sergey,I hop"}`},
	{"ellipsis with comments", `[1,2,3,/*c1*/.../*c2*/]`, `[1,2,3]`},
	{"ellipsis with comments on lines", "[\n  1,\n  2,\n  /*c1*/  .../*c2*/\n]", `[1,2]`},
	{"ellipsis in a nested object", `{"nested": {"a": 2, "b": 3, ...}}`, `{"nested":{"a":2,"b":3}}`},
	{"ellipsis in an object before a member", `{"a": 2, ..., "z": 26}`, `{"a":2,"z":26}`},
	{"ellipsis spaced as a whole body", `{ ... }`, `{}`},
	{"ellipsis spaced as a whole array", `[ ... ]`, `[]`},
	{"ellipsis then values", `[..., 7, 8]`, `[7,8]`},
	{"missing start quote of a key", `{a": "foo", "b": "bar"}`, `{"a":"foo","b":"bar"}`},
	{"missing start quote of a later key", `{"a": "foo", b": "bar"}`, `{"a":"foo","b":"bar"}`},
	{"missing start quote of a value then a key", `{"a": foo", "b": "bar"}`, `{"a":"foo","b":"bar"}`},
	{"unclosed string before a line break in an array", "[\n\"abc,\n\"def\"\n]", `["abc","def"]`},
	{"unclosed string with spaces before a line break", "[\n\"abc,  \n\"def\"\n]", `["abc","def"]`},
	{"unclosed string before a bracket and newline", "[\"abc]\n", `["abc"]`},
	{"unclosed string in a nested array", "[\n[\n\"abc\n]\n]\n", `[["abc"]]`},
	{"bare url as a key's value", `{url: https://www.example.com/}`, `{"url":"https://www.example.com/"}`},
	{"quoted url with trailing comma", `{url: "https://www.example.com/",}`, `{"url":"https://www.example.com/"}`},
	{"url in an array", `[https://www.example.com/]`, `["https://www.example.com/"]`},
	{"url missing its end quote", `{url: "https://www.example.com/}`, `{"url":"https://www.example.com/"}`},
	{"comma separated objects", `{"a": 1}, {"b": 2}`, `[{"a":1},{"b":2}]`},
	{"inner quotes around a word in an object", `{"key": "apple "bunny" pear"}`, `{"key":"apple \"bunny\" pear"}`},
	{"string then number in an array", `["a" 2]`, `["a",2]`},
	{"comma string then number", `["," 2]`, `[",",2]`},
	{"colon and comma strings", `[",", ":"]`, `[",",":"]`},
	{"string cut after a number in an array", `["a" 2`, `["a",2]`},
	{"raw backspace and formfeed", "{\"s\": \"a\bb\fc\"}", `{"s":"a\bb\fc"}`},
	{"raw carriage return", "{\"s\": \"a\rb\"}", `{"s":"a\rb"}`},
	{"single quote string holding double quotes", `{'html': '<a href="x">y</a>'}`, `{"html":"<a href=\"x\">y</a>"}`},
	{"curly single quotes", `{‘a’: ‘b’}`, `{"a":"b"}`},
	{"mixed curly and straight quote", `{"a": “b"}`, `{"a":"b"}`},
	{"jsonp with spaces and semicolon", `callback_123 ({"a": 1});`, `{"a":1}`},
	{"mongo date inside an array", `[ISODate("2012-12-19T06:01:17.171Z"), 1]`, `["2012-12-19T06:01:17.171Z",1]`},
	{"mongo new Date", `{"at": new Date("2024-01-01")}`, `{"at":"2024-01-01"}`},
	{"mongo NumberDecimal", `{"price": NumberDecimal("9.99")}`, `{"price":"9.99"}`},
	{"python dict with nested list and none", `{'a': [1, None, 'x'], 'b': {'c': False}}`, `{"a":[1,null,"x"],"b":{"c":false}}`},
	{"keys with spaces unquoted", `{first name: "Ann"}`, `{"first name":"Ann"}`},
	{"key with a hyphen unquoted", `{content-type: "json"}`, `{"content-type":"json"}`},
	{"value with a trailing comment on the last line", "{\n  \"a\": 1 // last\n}", `{"a":1}`},
	{"comment with quotes inside", "{\"a\": 1, // don't \"quote\" me\n\"b\": 2}", `{"a":1,"b":2}`},
	{"fence holding an array of calls", "```json\n[{\"name\": \"f\", \"arguments\": {\"x\": 1}}]\n```", `[{"name":"f","arguments":{"x":1}}]`},
	{"fence after prose with a colon", "The arguments are:\n\n```\n{\"q\": \"weather: oslo\"}\n```", `{"q":"weather: oslo"}`},
	{"think block before the object", "<think>the user wants {weather}</think>\n{\"city\": \"Oslo\"}", `{"city":"Oslo"}`},
	{"string with a raw newline then missing brace", "{\"a\": \"one\ntwo\"", `{"a":"one\ntwo"}`},
	{"empty key and empty value", `{"": "", "a": '',}`, `{"":"","a":""}`},
	{"nested quotes in a single quoted value", `{'cmd': 'echo "it''s"'}`, `{"cmd":"echo \"it''s\""}`},

	// Found by damaging valid tool arguments (benchmarks/hunt_test.go):
	// what follows a comma after a string decides whether its quote
	// closed it, and a broken next member is evidence too.
	{"doubled comma after a string", `{"a": "x",, "b": 1}`, `{"a":"x","b":1}`},
	{"doubled comma after a string on lines", "{\n  \"path\": \"a.txt\",,\n  \"n\": 2\n}", `{"path":"a.txt","n":2}`},
	{"doubled comma in an array of strings", `["a",, "b"]`, `["a","b"]`},
	{"missing colon before a string after a string", `{"path": "a.txt", "content" "hello"}`, `{"path":"a.txt","content":"hello"}`},
	{"missing colon with no space before a string", `{"path":"a.txt","content""hello"}`, `{"path":"a.txt","content":"hello"}`},
	{"missing colon with no space in the first member", `{"path""a.txt", "n": 1}`, `{"path":"a.txt","n":1}`},
	{"missing colon before a number after a string", `{"cmd":"ls","timeout"30}`, `{"cmd":"ls","timeout":30}`},
	{"missing colon before a literal after a string", `{"q": "x", "hourly"true}`, `{"q":"x","hourly":true}`},
	{"missing colon before an escaped json string", `{"p""{\"a\": 1}", "n": 2}`, `{"p":"{\"a\": 1}","n":2}`},
	{"key missing its closing quote after a string", `{"a": "x", "b: "y"}`, `{"a":"x","b":"y"}`},
	{"key missing its closing quote with no space", `{"a":"x","b:"y","c":1}`, `{"a":"x","b":"y","c":1}`},
	{"key missing its closing quote before a number", `{"a": "x", "n:30}`, `{"a":"x","n":30}`},
	{"key missing its closing quote before a literal", `{"a":"x","ok:false}`, `{"a":"x","ok":false}`},
	{"key with no value after a string", `{"a":"b","c"}`, `{"a":"b","c":""}`},
	{"key with no value after a number", `{"a": 1, "b"}`, `{"a":1,"b":""}`},
	{"key with no value on its own line", "{\n  \"a\": \"b\",\n  \"c\"\n}", `{"a":"b","c":""}`},

	// Cuts: what the cut fell inside is no content, and the line break a
	// terminal or a file adds after the cut is not either.
	{"cut after the opening quote of a value", `{"a": "x", "b": "`, `{"a":"x","b":""}`},
	{"cut after the opening quote of a first value", `{"query":"`, `{"query":""}`},
	{"cut after the opening quote of an element", `["a", "`, `["a"]`},
	{"cut inside a two-byte character", "{\"city\": \"Z\xc3", `{"city":"Z"}`},
	{"cut inside a three-byte character", "{\"jp\": \"東京\xe3\x82", `{"jp":"東京"}`},
	{"cut inside a character then a line break", "{\"q\": \"S\xc3\n", `{"q":"S"}`},
	{"cut inside a key then a line break", "{\"a\": \"x\", \"d\n", `{"a":"x"}`},
	{"cut inside an indented key then a line break", "{\n  \"a\": \"x\",\n  \"uni\n", `{"a":"x"}`},
	{"cut inside a literal then a line break", "{\"a\": \"x\", \"ok\": t\n", `{"a":"x","ok":true}`},
	{"cut after a backslash then a line break", "{\"s\": \"say \\\n", `{"s":"say "}`},
	{"cut after an opening quote then a line break", "{\"path\": \"\n", `{"path":""}`},
	{"cut inside a key then a carriage return and line break", "{\"a\": 1, \"b\r\n", `{"a":1}`},
	{"a closed string keeps its final line break", "{\"content\": \"line\n\"", `{"content":"line\n"}`},

	// Missing quotes where the structure around says where they belong.
	{"word missing its opening quote before a brace", `{"a": b"}`, `{"a":"b"}`},
	{"word missing its opening quote in an array", `["a",b","c",1]`, `["a","b","c",1]`},
	{"key missing its closing quote before a quoted value", `{"Action: "3"}`, `{"Action":"3"}`},
	{"key missing its closing quote, no space, then a member", `{"key:"1/3","foo":"bar"}`, `{"key":"1/3","foo":"bar"}`},
	{"key missing its closing quote before a brace in the value", `{"a:"{ b"}`, `{"a":"{ b"}`},
	{"key ending with a colon stays", `{"note:": 1}`, `{"note:":1}`},
	{"value missing its closing quote before its object's brace", `{"key":{"key2":"value2},"key3":"value3"}`, `{"key":{"key2":"value2"},"key3":"value3"}`},
	{"value missing its closing quote before a brace on its own line", "{\n  \"loc\": {\n    \"country\": \"CH\n  },\n  \"date\": \"x\"\n}", `{"loc":{"country":"CH"},"date":"x"}`},
	{"value missing its closing quote before the next object", `[{"key":"value},{"key":"value_after"}]`, `[{"key":"value"},{"key":"value_after"}]`},
	{"element missing its closing quote before the next array", `[["r1a", "r1b"], ["r2a", "r2b], ["r3a", "r3b"]]`, `[["r1a","r1b"],["r2a","r2b"],["r3a","r3b"]]`},
	{"string missing its closing quote before a comma and a line comment", "{\"name\": \"create_issue, // next\n\"arguments\": {\"title\": \"Crash\"}}", `{"name":"create_issue","arguments":{"title":"Crash"}}`},
	{"string missing its closing quote before a comma and a block comment", `{"a": "x, /* next */ "b": 1}`, `{"a":"x","b":1}`},
	{"element missing its closing quote before a comma and a hash comment", "[\"Open the file, # next\n\"Find\"]", `["Open the file","Find"]`},
	{"a comment inside a closed string stays", "{\"code\": \"a = 1, // c\n\"}", `{"code":"a = 1, // c\n"}`},
	{"last value missing its closing quote before a trailing comma", "{\n  \"a\": \"x\",\n  \"database\": \"prod,\n}", `{"a":"x","database":"prod"}`},
	{"last value missing its closing quote before a trailing comma and brace", `{"selector": "div > p:first-child,}`, `{"selector":"div > p:first-child"}`},
	{"last element missing its closing quote before trailing commas and closers", `{"employees": ["John", "Anna", "Peter,],}`, `{"employees":["John","Anna","Peter"]}`},
	{"last value missing its closing quote before trailing commas on lines", "{\n  \"tags\": [\n    \"a\",\n    \"b,\n  ],\n}", `{"tags":["a","b"]}`},
	{"a cut after a comma keeps the comma", `{"a": "x,`, `{"a":"x,"}`},
	{"a cut after a comma and a space keeps both", `{"sql": "SELECT name, `, `{"sql":"SELECT name, "}`},
	{"unquoted key and a number with the colon missing", "{\n  sku: \"B-200\",\n  qty 1,\n  price: 24\n}", `{"sku":"B-200","qty":1,"price":24}`},
	{"unquoted key and a literal with the colon missing", `{json_payload:"x",dry_run true}`, `{"json_payload":"x","dry_run":true}`},
	{"unquoted key and a decimal with the colon missing after a member", `{"a": 1, b 2.5}`, `{"a":1,"b":2.5}`},
	{"hex color value is no comment", `{"color": #ff0000, "x": 1}`, `{"color":"#ff0000","x":1}`},
	{"hashtags in an array are no comments", `[#a, #b]`, `["#a","#b"]`},
	{"hash value missing its opening quote", `{"tag": #foo-bar-baz", "x": 1}`, `{"tag":"#foo-bar-baz","x":1}`},
	{"hash comment with no space after a comma stays a comment", "{\"a\": 1, #note\n\"b\": 2}", `{"a":1,"b":2}`},
	{"hash comment after a value stays a comment", "{\"a\": 1 #note\n}", `{"a":1}`},
	{"unquoted key missing its colon before a string", "{\n  path: \"a.txt\",\n  content \"hello\"\n}", `{"path":"a.txt","content":"hello"}`},
	{"unquoted key missing its colon before an array", "{\n  sku: \"B-200\",\n  tags[\"a\"]\n}", `{"sku":"B-200","tags":["a"]}`},
	{"unquoted key right after a comma missing its colon", `{key:"value",key2 "value2"}`, `{"key":"value","key2":"value2"}`},
	{"unquoted key right after a comma, then its value with no space", `{"a": "x",b"y"}`, `{"a":"x","b":"y"}`},
	{"a word after a comma and a space stays text", `{"a": "He said hi, then "bye" ok"}`, `{"a":"He said hi, then \"bye\" ok"}`},
	{"a string holding an object with unescaped quotes", `{"json_payload":"{"a": 1, "b": [true, null]}","dry_run":true}`, `{"json_payload":"{\"a\": 1, \"b\": [true, null]}","dry_run":true}`},
	{"a string holding an object on its own line", "{\n  \"code\": \"x\",\n  \"body\": \"{\"k\": 1, \"v\": 2}\"\n}", `{"code":"x","body":"{\"k\": 1, \"v\": 2}"}`},
	{"a string holding an array of objects", `{"rows": "[{"id": 1}, {"id": 2}]", "n": 2}`, `{"rows":"[{\"id\": 1}, {\"id\": 2}]","n":2}`},
	{"an unbalanced brace at the start of a string is no JSON", `{"text": "{ b, "c": 1}`, `{"text":"{ b","c":1}`},
	{"a word and a quoted phrase in a sentence stay text", `{"a": "He said hi", then "bye" ok"}`, `{"a":"He said hi\", then \"bye\" ok"}`},
	{"braces the string opened stay in it", `{"text": "see {a}, "b": 1}`, `{"text":"see {a}","b":1}`},
	{"element missing its closing quote before the array closer", `{"labels": ["bug", "p1], "assignee": null}`, `{"labels":["bug","p1"],"assignee":null}`},
	{"object missing its brace before an array element", `[{"key":"value",[1,2,3,true]]`, `[{"key":"value"},[1,2,3,true]]`},
	{"missing comma before a number on the next line", "[\"a\", \"b\"\n  1\n]", `["a","b",1]`},
	{"missing comma before a literal on the next line", "[\n  \"a\"\n  true\n]", `["a",true]`},
	{"missing comma before an array after a string", `["a","b" [4,5,6]]`, `["a","b",[4,5,6]]`},

	// A number glued to an opener ends there, in an object as in an array.
	{"number glued to the next object in an array of objects", `[{"a": 5{"b": 1}]`, `[{"a":5},{"b":1}]`},
	{"number glued to the next object, nested", `{"rows": [{"n": -1.5{"n": 2}]}`, `{"rows":[{"n":-1.5},{"n":2}]}`},
	// Code fences inside an object.
	{"fenced block as a value", "{\"code\": ```python\nprint(\"a\\n\")\n```, \"lang\": \"py\"}", `{"code":"print(\"a\\n\")","lang":"py"}`},
	{"fenced block as the last value", "{\"code\": ```\nx = 1\ny = 2\n```\n}", `{"code":"x = 1\ny = 2"}`},
	{"fenced object inside braces", "{\n```json\n{\"a\": 1}\n```\n}", `{"a":1}`},
	// Accents as quotes, paired either way.
	{"backtick closed by an acute accent", "{\"a\": `hello´, \"b\": 1}", `{"a":"hello","b":1}`},
	{"acute closed by a backtick", "{´a`: ´x`}", `{"a":"x"}`},
	// A member with no value: cut after its key it is null, missing before
	// a separator it is the empty string; a lone sign or dot is no value.
	{"cut after a bare key's colon", `{a: 1, b:`, `{"a":1,"b":null}`},
	{"cut after a lone minus", `{"a": 1, "b": -`, `{"a":1,"b":null}`},
	{"cut after a lone minus, final line break", "{\"a\": 1, \"b\": -\n", `{"a":1,"b":null}`},
	{"cut inside a key drops it", `{"a": 1, "pa`, `{"a":1}`},
	{"lone minus before the closer", `{"a": -}`, `{"a":""}`},
	{"lone dot before the next member", `{"a": ., "b": 1}`, `{"a":"","b":1}`},
	{"lone minus in an array", `[1, -, 2]`, `[1,2]`},
	{"lone dot in an array", `[.]`, `[]`},
	{"missing value before the closer", `{"a": 1, "b": }`, `{"a":1,"b":""}`},
	{"missing value before the closer, no space", `{"a":}`, `{"a":""}`},
	// JavaScript string concatenation in containers.
	{"concatenation across lines in an object", "{\"text\": \"first line \" +\n    \"second line\",\n \"n\": 1}", `{"text":"first line second line","n":1}`},
	{"concatenation in an array", "[\"a\" + \"b\",\n \"c\"\n + \"d\"]", `["ab","cd"]`},
	{"concatenation of three with single quotes", `{'s': 'a' + 'b' + "c"}`, `{"s":"abc"}`},
	{"concatenation with a comment", `{"s": "a" + /* more */ "b"}`, `{"s":"ab"}`},
	{"concatenation after a string missing its closing quote", "{\"s\": \"hello +\n  \" world\", \"n\": 1}", `{"s":"hello world","n":1}`},
	{"concatenation after an element missing its closing quote", "[\"a +\n \"b\", 1]", `["ab",1]`},
	{"a plus inside a sentence stays text", `{"s": "a + "b" c"}`, `{"s":"a + \"b\" c"}`},
	// Top-level lists and scalars are what they are; tool arguments that
	// are not an object are refused by the schema check (TLP-012).
	{"a bare list is a list", `[1, 2,`, `[1,2]`},
	{"a bare list of objects", `[{a: 1}, {a: 2}]`, `[{"a":1},{"a":2}]`},
	// An unclosed string ending at a comma followed by the next key.
	{"unclosed string before the next key", `{"a": "hello, "b": 2}`, `{"a":"hello","b":2}`},
	{"unclosed string before the next bare key", "{\"a\": \"hello,\n b: 2}", `{"a":"hello","b":2}`},
	{"unclosed string before the next key in an array", `[{"a": "x, "b": "y"}]`, `[{"a":"x","b":"y"}]`},
}

func TestPeerCases(t *testing.T) {
	for _, tc := range peerCases {
		t.Run(tc.name, func(t *testing.T) {
			res := RepairString(tc.in, nil)
			if res.Err != nil {
				t.Fatalf("%q: error %v", tc.in, res.Err)
			}
			if !Valid(res.Output) {
				t.Fatalf("%q: invalid output %q returned as a success", tc.in, res.Output)
			}
			if !sameJSON(res.Output, []byte(tc.want)) {
				t.Errorf("%q: output %s, want %s", tc.in, res.Output, tc.want)
			}
			again := Repair(res.Output, nil)
			if again.Attempted || string(again.Output) != string(res.Output) {
				t.Errorf("not idempotent: %s -> %s", res.Output, again.Output)
			}
		})
	}
}

// TestValuelessKeyIsRisky: a key with no value gets an empty one, and the
// repair says it invented it.
func TestValuelessKeyIsRisky(t *testing.T) {
	for _, in := range []string{`{"a":"b","c"}`, `{"a": 1, "b"}`, `{"a": 1, "b": }`} {
		res := RepairString(in, nil)
		risky := false
		for _, r := range res.Repairs {
			risky = risky || r.Kind == toolcall.RepairMissingValue && r.Risky
		}
		if res.Err != nil || !risky {
			t.Errorf("%q: %s %v %v, want a risky missing_value", in, res.Output, res.Err, res.Repairs)
		}
	}
	for _, in := range []string{`{"a"}`, `{invalid json}`, `{"a", "b"}`} {
		if res := RepairString(in, nil); res.Err == nil {
			t.Errorf("%q: repaired to %s, want an error", in, res.Output)
		}
	}
}

// TestPeerRefusals: text after a number that may be its unit or more of
// its digits is not dropped; without a reading that keeps it, repair
// fails.
func TestPeerRefusals(t *testing.T) {
	for _, in := range []string{`{"a": 1 000}`, `{"n": 5 kg}`, `{"a": 1,5}`} {
		if res := RepairString(in, nil); res.Err == nil {
			t.Errorf("%q: repaired to %s, want an error", in, res.Output)
		}
	}
}
