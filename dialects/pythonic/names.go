package pythonic

import "strings"

// codeNames are callees that mark a bare call expression as program code
// rather than a tool call when no declared tool has the name: Python
// built-ins, the math functions prose quotes, and calls into modules and
// objects that code samples use. "print('hello')" in a fence is an answer
// about Python, not a call to a tool named print.
var codeNames = map[string]bool{
	"abs": true, "all": true, "any": true, "ascii": true, "bin": true, "bool": true,
	"breakpoint": true, "bytearray": true, "bytes": true, "callable": true, "chr": true,
	"classmethod": true, "compile": true, "complex": true, "delattr": true, "dict": true,
	"dir": true, "divmod": true, "enumerate": true, "eval": true, "exec": true, "exit": true,
	"filter": true, "float": true, "format": true, "frozenset": true, "getattr": true,
	"globals": true, "hasattr": true, "hash": true, "help": true, "hex": true, "id": true,
	"input": true, "int": true, "isinstance": true, "issubclass": true, "iter": true,
	"len": true, "list": true, "locals": true, "map": true, "max": true, "min": true,
	"next": true, "object": true, "oct": true, "open": true, "ord": true, "pow": true,
	"print": true, "property": true, "quit": true, "range": true, "repr": true,
	"reversed": true, "round": true, "set": true, "setattr": true, "slice": true,
	"sorted": true, "staticmethod": true, "str": true, "sum": true, "super": true,
	"tuple": true, "type": true, "vars": true, "zip": true, "__import__": true,
	"sin": true, "cos": true, "tan": true, "sqrt": true, "log": true, "exp": true,
	"floor": true, "ceil": true, "printf": true, "println": true, "alert": true,
}

// codeModules are receivers whose methods are code: os.path.join(...),
// np.array(...), console.log(...).
var codeModules = map[string]bool{
	"os": true, "sys": true, "math": true, "json": true, "re": true, "time": true,
	"datetime": true, "random": true, "subprocess": true, "shutil": true, "pathlib": true,
	"itertools": true, "collections": true, "functools": true, "asyncio": true,
	"logging": true, "np": true, "numpy": true, "pd": true, "pandas": true, "plt": true,
	"matplotlib": true, "torch": true, "tf": true, "requests": true, "self": true,
	"console": true, "document": true, "window": true, "Math": true, "JSON": true,
	"System": true, "fmt": true, "str": true, "list": true, "dict": true,
}

// isCodeName reports whether name is a code callee (see codeNames).
func isCodeName(name string) bool {
	if codeNames[name] {
		return true
	}
	head, _, dotted := strings.Cut(name, ".")
	return dotted && codeModules[head]
}

// builtinParams are the parameters of Llama 3's built-in tools, used to name
// positional arguments when no schema is declared.
var builtinParams = map[string][]string{
	"brave_search":     {"query"},
	"wolfram_alpha":    {"query"},
	"python":           {"code"},
	"code_interpreter": {"code"},
}
