package codemode

// The recogniser below follows Python 3's statement grammar (the PEG
// grammar of the language reference) closely enough to accept real
// programs and refuse prose: it checks the shape of every statement and
// expression, but not the rules CPython applies after parsing (assignment
// targets, names bound twice, break outside a loop). It builds no tree: it
// only counts what it saw, which is what the confidence is made from.

// syntaxError stops a statement at the first token the grammar refuses.
type syntaxError struct{ at int }

// exKind summarises an expression for the call/code distinction.
type exKind uint8

const (
	exOther   exKind = iota
	exName           // a bare name or dotted name
	exLiteral        // a literal or a display of literals
	exCall           // name(...) or a.b(...)
	exCallList
)

type ex struct {
	kind exKind
	// target: the expression can be assigned to (a name, attribute,
	// subscript, or a tuple or list of targets).
	target bool
	// name is the dotted name of exName, or the callee of exCall.
	name string
	// calls are the callees of exCall and exCallList.
	calls []string
	// tuple: several expressions separated by commas, or starred.
	tuple bool
}

// stats counts what a run of statements held.
type stats struct {
	statements int
	compound   int // def, class, if, for, while, with, try, match
	imports    int
	assigns    int // assignments, augmented and annotated with a value
	control    int // return, raise, yield, assert, del, global, nonlocal, pass, break, continue
	calls      int // expression statements that are calls
	annotated  int // annotated assignments with a value ("Answer: x = 5" reads as one)
	weak       int // other expression statements, annotations without a value
	// top-level statements that are calls or lists of calls, with their
	// callees; callShaped is false once any other statement is seen.
	callShaped bool
	callees    []string
	lists      int
}

// parser reads statements from a lexer.
type parser struct {
	lx    *lexer
	toks  []token
	pos   int
	depth int
	st    stats
	// lastEnd is the end of the last token consumed that is not NEWLINE,
	// INDENT or DEDENT.
	lastEnd int
	// funcs and loops count the enclosing function bodies and loop bodies
	// (a def resets loops): return and yield belong in a function, break
	// and continue in a loop.
	funcs, loops int
}

const maxDepth = 100

// enterCost is what one level of recursion costs against the budget, in
// bytes of lexing: a failed deep parse unwinds every level it entered.
const enterCost = 4

func newParser(src string, budget *int) *parser {
	return &parser{lx: newLexer(src, budget), st: stats{callShaped: true}}
}

func (p *parser) peekN(n int) token {
	for len(p.toks) <= p.pos+n {
		p.toks = append(p.toks, p.lx.next())
	}
	return p.toks[p.pos+n]
}

func (p *parser) peek() token { return p.peekN(0) }

func (p *parser) advance() token {
	t := p.peek()
	if t.kind == tError {
		p.fail()
	}
	p.pos++
	if t.kind != tNewline && t.kind != tIndent && t.kind != tDedent && t.kind != tEOF {
		p.lastEnd = t.end
	}
	return t
}

func (p *parser) fail() { panic(syntaxError{at: p.peek().start}) }

func (p *parser) isOp(op string) bool {
	t := p.peek()
	return t.kind == tOp && t.text == op
}

func (p *parser) isKw(kw string) bool {
	t := p.peek()
	return t.kind == tName && t.text == kw
}

func (p *parser) acceptOp(op string) bool {
	if p.isOp(op) {
		p.advance()
		return true
	}
	return false
}

func (p *parser) acceptKw(kw string) bool {
	if p.isKw(kw) {
		p.advance()
		return true
	}
	return false
}

func (p *parser) expectOp(op string) {
	if !p.acceptOp(op) {
		p.fail()
	}
}

func (p *parser) expectKw(kw string) {
	if !p.acceptKw(kw) {
		p.fail()
	}
}

func (p *parser) expect(k tokKind) token {
	if p.peek().kind != k {
		p.fail()
	}
	return p.advance()
}

// name reads an identifier that is not a keyword.
func (p *parser) name() string {
	t := p.peek()
	if t.kind != tName || t.kw {
		p.fail()
	}
	p.advance()
	return t.text
}

func (p *parser) isName() bool {
	t := p.peek()
	return t.kind == tName && !t.kw
}

// enter counts one level of recursion against the depth limit, and one
// unit of work against the lexer's budget, so that the budget bounds the
// parser's work as well as the lexer's.
func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth || !p.lx.spend(enterCost) {
		p.fail()
	}
}

func (p *parser) leave() { p.depth-- }

var keywords = map[string]bool{
	"False": true, "None": true, "True": true, "and": true, "as": true, "assert": true, "async": true,
	"await": true, "break": true, "class": true, "continue": true, "def": true, "del": true, "elif": true,
	"else": true, "except": true, "finally": true, "for": true, "from": true, "global": true, "if": true,
	"import": true, "in": true, "is": true, "lambda": true, "nonlocal": true, "not": true, "or": true,
	"pass": true, "raise": true, "return": true, "try": true, "while": true, "with": true, "yield": true,
}

// statement tries one statement; on a syntax error it restores the
// position and statistics and returns false with the error's offset.
func (p *parser) statement(top bool) (ok bool, at int) {
	save, saveSt, saveEnd, saveFuncs, saveLoops := p.pos, p.st, p.lastEnd, p.funcs, p.loops
	saveSt.callees = append([]string(nil), p.st.callees...)
	defer func() {
		if r := recover(); r != nil {
			se, isSyntax := r.(syntaxError)
			if !isSyntax {
				panic(r)
			}
			p.pos, p.st, p.lastEnd, p.depth, p.funcs, p.loops = save, saveSt, saveEnd, 0, saveFuncs, saveLoops
			ok, at = false, se.at
		}
	}()
	p.stmt(top)
	return true, 0
}

// file reads statements to the end; it returns the offset of the first
// error, or -1.
func (p *parser) file() int {
	for {
		for p.peek().kind == tNewline {
			p.advance()
		}
		if p.peek().kind == tEOF {
			return -1
		}
		if ok, at := p.statement(true); !ok {
			return at
		}
		p.drop()
	}
}

// drop forgets the tokens of the statements read, between top-level
// statements, so that a long program is not held token by token.
func (p *parser) drop() {
	n := copy(p.toks, p.toks[p.pos:])
	p.toks, p.pos = p.toks[:n], 0
}

// greedy reads statements until one fails or the source ends, and
// returns how many it read.
func (p *parser) greedy() int {
	n := 0
	for {
		if p.peek().kind == tEOF || p.peek().kind == tError {
			return n
		}
		if ok, _ := p.statement(true); !ok {
			return n
		}
		p.drop()
		n++
	}
}

func (p *parser) stmt(top bool) {
	p.enter()
	defer p.leave()
	t := p.peek()
	if t.kind == tOp && t.text == "@" {
		p.shape(top, false)
		for p.acceptOp("@") {
			p.namedExpression()
			p.expect(tNewline)
		}
		p.acceptKw("async")
		switch {
		case p.isKw("def"):
			p.funcDef()
		case p.isKw("class"):
			p.classDef()
		default:
			p.fail()
		}
		p.st.compound++
		p.st.statements++
		return
	}
	if t.kind == tName {
		switch t.text {
		case "def", "class", "if", "while", "for", "with", "try", "async":
			p.shape(top, false)
			p.compound()
			p.st.compound++
			p.st.statements++
			return
		case "match":
			if p.matchStmt() {
				p.shape(top, false)
				p.st.compound++
				p.st.statements++
				return
			}
		}
	}
	p.simpleStmts(top)
}

// shape notes a top-level statement that is not a call.
func (p *parser) shape(top, call bool) {
	if top && !call {
		p.st.callShaped = false
	}
}

func (p *parser) simpleStmts(top bool) {
	p.simpleStmt(top)
	for p.acceptOp(";") {
		if p.peek().kind == tNewline {
			break
		}
		p.simpleStmt(top)
	}
	p.expect(tNewline)
}

func (p *parser) simpleStmt(top bool) {
	p.st.statements++
	t := p.peek()
	if t.kind == tName {
		switch t.text {
		case "break", "continue":
			if p.loops == 0 {
				p.fail()
			}
			p.advance()
			p.control(top)
			return
		case "pass":
			p.advance()
			p.control(top)
			return
		case "return":
			if p.funcs == 0 {
				p.fail()
			}
			p.advance()
			if !p.endOfSimple() {
				p.starExpressions()
			}
			p.control(top)
			return
		case "raise":
			p.advance()
			if !p.endOfSimple() {
				p.expression()
				if p.acceptKw("from") {
					p.expression()
				}
			}
			p.control(top)
			return
		case "global", "nonlocal":
			p.advance()
			p.name()
			for p.acceptOp(",") {
				p.name()
			}
			p.control(top)
			return
		case "del":
			p.advance()
			p.targets()
			p.control(top)
			return
		case "assert":
			p.advance()
			p.expression()
			if p.acceptOp(",") {
				p.expression()
			}
			p.control(top)
			return
		case "import":
			p.advance()
			p.dottedAs()
			for p.acceptOp(",") {
				p.dottedAs()
			}
			p.shape(top, false)
			p.st.imports++
			return
		case "from":
			p.fromImport()
			p.shape(top, false)
			p.st.imports++
			return
		case "type":
			// type X[T] = ...: a soft keyword before a name.
			if n := p.peekN(1); n.kind == tName && !n.kw {
				if n2 := p.peekN(2); n2.kind == tOp && (n2.text == "=" || n2.text == "[") {
					p.advance()
					p.name()
					if p.isOp("[") {
						p.typeParams()
					}
					p.expectOp("=")
					p.expression()
					p.shape(top, false)
					p.st.assigns++
					return
				}
			}
		}
	}
	p.exprStmt(top)
}

func (p *parser) control(top bool) {
	p.shape(top, false)
	p.st.control++
}

func (p *parser) endOfSimple() bool {
	t := p.peek()
	return t.kind == tNewline || t.kind == tEOF || t.kind == tOp && t.text == ";"
}

func (p *parser) exprStmt(top bool) {
	if p.isKw("yield") {
		p.yieldExpr()
		p.control(top)
		return
	}
	first := p.starExpressions()
	switch {
	case p.isOp("="):
		for p.acceptOp("=") {
			if !first.target {
				p.fail()
			}
			if p.isKw("yield") {
				p.yieldExpr()
				first = ex{}
			} else {
				first = p.starExpressions()
			}
		}
		p.shape(top, false)
		p.st.assigns++
	case p.peek().kind == tOp && augmented[p.peek().text]:
		if !first.target || first.tuple {
			p.fail()
		}
		p.advance()
		if p.isKw("yield") {
			p.yieldExpr()
		} else {
			p.starExpressions()
		}
		p.shape(top, false)
		p.st.assigns++
	case p.isOp(":"):
		// An annotation: the target must be a name, attribute or
		// subscript, which prose like "Note: see below" is too; without a
		// value it counts as weak evidence only.
		if !first.target || first.tuple {
			p.fail()
		}
		p.advance()
		p.expression()
		p.shape(top, false)
		if p.acceptOp("=") {
			if p.isKw("yield") {
				p.yieldExpr()
			} else {
				p.starExpressions()
			}
			p.st.annotated++
		} else {
			p.st.weak++
		}
	default:
		switch first.kind {
		case exCall, exCallList:
			if top {
				p.st.callees = append(p.st.callees, first.calls...)
				if first.kind == exCallList {
					p.st.lists++
				}
			}
			p.st.calls++
		default:
			p.shape(top, false)
			p.st.weak++
		}
	}
}

var augmented = map[string]bool{
	"+=": true, "-=": true, "*=": true, "/=": true, "//=": true, "%=": true, "@=": true,
	"&=": true, "|=": true, "^=": true, ">>=": true, "<<=": true, "**=": true,
}

func (p *parser) dottedName() {
	p.name()
	for p.acceptOp(".") {
		p.name()
	}
}

func (p *parser) dottedAs() {
	p.dottedName()
	if p.acceptKw("as") {
		p.name()
	}
}

func (p *parser) fromImport() {
	p.expectKw("from")
	dots := 0
	for p.isOp(".") || p.isOp("...") {
		dots++
		p.advance()
	}
	if dots == 0 || !p.isKw("import") {
		p.dottedName()
	}
	p.expectKw("import")
	if p.acceptOp("*") {
		return
	}
	paren := p.acceptOp("(")
	p.name()
	if p.acceptKw("as") {
		p.name()
	}
	for p.acceptOp(",") {
		if paren && p.isOp(")") {
			break
		}
		p.name()
		if p.acceptKw("as") {
			p.name()
		}
	}
	if paren {
		p.expectOp(")")
	}
}

// block reads the body of a compound statement after its colon.
func (p *parser) block() {
	if p.peek().kind != tNewline {
		p.simpleStmts(false)
		return
	}
	p.advance()
	p.expect(tIndent)
	for {
		p.stmt(false)
		if p.peek().kind == tDedent {
			p.advance()
			return
		}
		if p.peek().kind == tEOF {
			return
		}
	}
}

func (p *parser) compound() {
	async := p.acceptKw("async")
	t := p.peek()
	switch t.text {
	case "def":
		p.funcDef()
	case "class":
		if async {
			p.fail()
		}
		p.classDef()
	case "if":
		if async {
			p.fail()
		}
		p.advance()
		p.namedExpression()
		p.expectOp(":")
		p.block()
		for p.acceptKw("elif") {
			p.namedExpression()
			p.expectOp(":")
			p.block()
		}
		p.elseBlock()
	case "while":
		if async {
			p.fail()
		}
		p.advance()
		p.namedExpression()
		p.expectOp(":")
		p.loopBlock()
		p.elseBlock()
	case "for":
		p.advance()
		p.targets()
		p.expectKw("in")
		p.starExpressions()
		p.expectOp(":")
		p.loopBlock()
		p.elseBlock()
	case "with":
		p.advance()
		p.withItems()
		p.expectOp(":")
		p.block()
	case "try":
		if async {
			p.fail()
		}
		p.advance()
		p.expectOp(":")
		p.block()
		handlers := 0
		for p.acceptKw("except") {
			handlers++
			p.acceptOp("*")
			if !p.isOp(":") {
				p.expression()
				if p.acceptOp(",") { // except A, B: (Python 3.14)
					p.expression()
					for p.acceptOp(",") {
						p.expression()
					}
				} else if p.acceptKw("as") {
					p.name()
				}
			}
			p.expectOp(":")
			p.block()
		}
		if handlers > 0 {
			p.elseBlock()
		}
		if p.acceptKw("finally") {
			p.expectOp(":")
			p.block()
		} else if handlers == 0 {
			p.fail()
		}
	default:
		p.fail()
	}
}

func (p *parser) loopBlock() {
	p.loops++
	p.block()
	p.loops--
}

func (p *parser) elseBlock() {
	if p.acceptKw("else") {
		p.expectOp(":")
		p.block()
	}
}

func (p *parser) withItems() {
	// with (a as b, c as d): tried first, then the plain form.
	if p.isOp("(") {
		save := p.pos
		ok := func() (ok bool) {
			defer func() {
				if r := recover(); r != nil {
					if _, isSyntax := r.(syntaxError); !isSyntax {
						panic(r)
					}
					ok = false
				}
			}()
			p.advance()
			p.withItem()
			for p.acceptOp(",") {
				if p.isOp(")") {
					break
				}
				p.withItem()
			}
			p.expectOp(")")
			if !p.isOp(":") {
				p.fail()
			}
			return true
		}()
		if ok {
			return
		}
		p.pos = save
	}
	p.withItem()
	for p.acceptOp(",") {
		p.withItem()
	}
}

func (p *parser) withItem() {
	p.expression()
	if p.acceptKw("as") {
		p.target()
	}
}

func (p *parser) funcDef() {
	p.expectKw("def")
	funcs, loops := p.funcs, p.loops
	defer func() { p.funcs, p.loops = funcs, loops }()
	p.name()
	if p.isOp("[") {
		p.typeParams()
	}
	p.expectOp("(")
	p.params(")", true)
	p.expectOp(")")
	if p.acceptOp("->") {
		p.expression()
	}
	p.expectOp(":")
	p.funcs, p.loops = p.funcs+1, 0
	p.block()
}

func (p *parser) classDef() {
	p.expectKw("class")
	p.name()
	if p.isOp("[") {
		p.typeParams()
	}
	if p.acceptOp("(") {
		p.arguments()
		p.expectOp(")")
	}
	p.expectOp(":")
	funcs, loops := p.funcs, p.loops
	p.funcs, p.loops = 0, 0
	p.block()
	p.funcs, p.loops = funcs, loops
}

// params reads a parameter list up to (not including) the closing token.
func (p *parser) params(closing string, annotated bool) {
	for !p.isOp(closing) {
		switch {
		case p.acceptOp("/"):
		case p.acceptOp("**"):
			p.param(annotated)
		case p.acceptOp("*"):
			if p.isName() {
				p.param(annotated)
			}
		default:
			p.param(annotated)
			if p.acceptOp("=") {
				p.expression()
			}
		}
		if !p.acceptOp(",") {
			break
		}
	}
}

func (p *parser) param(annotated bool) {
	p.name()
	if annotated && p.acceptOp(":") {
		if p.acceptOp("*") { // *args: *Ts
			p.bitwiseOr()
		} else {
			p.expression()
		}
	}
}

func (p *parser) typeParams() {
	p.expectOp("[")
	for !p.isOp("]") {
		if !p.acceptOp("**") {
			p.acceptOp("*")
		}
		p.name()
		if p.acceptOp(":") {
			p.expression()
		}
		if p.acceptOp("=") {
			p.expression()
		}
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectOp("]")
}

// matchStmt reads a match statement when the soft keyword starts one; it
// returns false, having consumed nothing, when it does not.
func (p *parser) matchStmt() (ok bool) {
	save := p.pos
	defer func() {
		if r := recover(); r != nil {
			if _, isSyntax := r.(syntaxError); !isSyntax {
				panic(r)
			}
			p.pos = save
			ok = false
		}
	}()
	p.advance()
	p.starExpressions()
	p.expectOp(":")
	p.expect(tNewline)
	p.expect(tIndent)
	// Only now is it surely a match statement: errors below are the
	// statement's own.
	cases := 0
	for p.isKw("case") || p.peek().kind == tName && p.peek().text == "case" {
		cases++
		p.advance()
		p.pattern()
		if p.acceptKw("if") {
			p.namedExpression()
		}
		p.expectOp(":")
		p.block()
		if p.peek().kind == tDedent {
			p.advance()
			break
		}
	}
	if cases == 0 {
		p.fail()
	}
	return true
}

// pattern reads a case pattern. Patterns are read as operands of "|"
// with "as" captures, which accepts every valid pattern and a few
// expressions Python would refuse there.
func (p *parser) pattern() {
	for {
		if p.acceptOp("*") {
			p.name()
		} else {
			p.bitwiseOr()
		}
		if p.acceptKw("as") {
			p.name()
		}
		if !p.acceptOp(",") || p.isOp(":") || p.isKw("if") {
			return
		}
	}
}

// targets reads the targets of a for loop or a del statement: expressions
// that stop before "in".
func (p *parser) targets() {
	p.target()
	for p.acceptOp(",") {
		if p.isKw("in") || p.isOp("=") || p.endOfSimple() {
			break
		}
		p.target()
	}
}

func (p *parser) target() {
	p.acceptOp("*")
	if !p.bitwiseOr().target {
		p.fail()
	}
}

// Expressions.

func (p *parser) starExpressions() ex {
	e := p.starExpression()
	target, n := e.target, 1
	for p.acceptOp(",") {
		n++
		if p.exprEnds() {
			break
		}
		target = p.starExpression().target && target
	}
	if n > 1 {
		return ex{target: target, tuple: true}
	}
	return e
}

// exprEnds reports whether the next token cannot start an expression.
func (p *parser) exprEnds() bool {
	t := p.peek()
	switch t.kind {
	case tNewline, tEOF, tDedent, tIndent, tError:
		return true
	case tOp:
		switch t.text {
		case ")", "]", "}", "=", ":", ";":
			return true
		}
		return augmented[t.text]
	case tName:
		return t.text == "in"
	}
	return false
}

func (p *parser) starExpression() ex {
	if p.acceptOp("*") {
		return ex{target: p.bitwiseOr().target, tuple: true}
	}
	return p.expression()
}

func (p *parser) namedExpression() ex {
	if t := p.peek(); t.kind == tName && !t.kw {
		if n := p.peekN(1); n.kind == tOp && n.text == ":=" {
			p.advance()
			p.advance()
			p.expression()
			return ex{}
		}
	}
	return p.expression()
}

func (p *parser) starNamedExpression() ex {
	if p.acceptOp("*") {
		return ex{target: p.bitwiseOr().target, tuple: true}
	}
	return p.namedExpression()
}

func (p *parser) expression() ex {
	p.enter()
	defer p.leave()
	if p.acceptKw("lambda") {
		p.params(":", false)
		p.expectOp(":")
		p.expression()
		return ex{}
	}
	e := p.disjunction()
	if p.acceptKw("if") {
		p.disjunction()
		p.expectKw("else")
		p.expression()
		return ex{}
	}
	return e
}

func (p *parser) disjunction() ex {
	e := p.conjunction()
	for p.acceptKw("or") {
		p.conjunction()
		e = ex{}
	}
	return e
}

func (p *parser) conjunction() ex {
	e := p.inversion()
	for p.acceptKw("and") {
		p.inversion()
		e = ex{}
	}
	return e
}

func (p *parser) inversion() ex {
	if p.acceptKw("not") {
		p.enter()
		defer p.leave()
		p.inversion()
		return ex{}
	}
	return p.comparison()
}

var comparisons = map[string]bool{"==": true, "!=": true, "<": true, ">": true, "<=": true, ">=": true}

func (p *parser) comparison() ex {
	e := p.bitwiseOr()
	for {
		t := p.peek()
		switch {
		case t.kind == tOp && comparisons[t.text]:
			p.advance()
		case t.kind == tName && t.text == "in":
			p.advance()
		case t.kind == tName && t.text == "is":
			p.advance()
			p.acceptKw("not")
		case t.kind == tName && t.text == "not":
			if n := p.peekN(1); n.kind != tName || n.text != "in" {
				return e
			}
			p.advance()
			p.advance()
		default:
			return e
		}
		p.bitwiseOr()
		e = ex{}
	}
}

// binaryLevels are the binary operators from loosest to tightest.
var binaryLevels = [][]string{
	{"|"}, {"^"}, {"&"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "//", "%", "@"},
}

func (p *parser) bitwiseOr() ex { return p.binary(0) }

func (p *parser) binary(level int) ex {
	if level == len(binaryLevels) {
		return p.factor()
	}
	e := p.binary(level + 1)
	for {
		t := p.peek()
		if t.kind != tOp || !inList(binaryLevels[level], t.text) {
			return e
		}
		p.advance()
		p.binary(level + 1)
		e = ex{}
	}
}

func inList(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (p *parser) factor() ex {
	if t := p.peek(); t.kind == tOp && (t.text == "+" || t.text == "-" || t.text == "~") {
		p.enter()
		defer p.leave()
		p.advance()
		e := p.factor()
		if e.kind == exLiteral {
			return e
		}
		return ex{}
	}
	e := p.power()
	return e
}

func (p *parser) power() ex {
	await := p.acceptKw("await")
	e := p.primary()
	if await {
		e = ex{}
	}
	if p.acceptOp("**") {
		p.factor()
		return ex{}
	}
	return e
}

func (p *parser) primary() ex {
	e := p.atom()
	for {
		switch {
		case p.acceptOp("."):
			n := p.name()
			if e.kind == exName {
				e.name += "." + n
			} else {
				e = ex{target: true}
			}
		case p.acceptOp("("):
			p.arguments()
			p.expectOp(")")
			if e.kind == exName {
				e = ex{kind: exCall, name: e.name, calls: []string{e.name}}
			} else {
				e = ex{}
			}
		case p.acceptOp("["):
			p.slices()
			p.expectOp("]")
			e = ex{target: true}
		default:
			return e
		}
	}
}

func (p *parser) arguments() {
	for !p.isOp(")") {
		switch {
		case p.acceptOp("**"):
			p.expression()
		case p.acceptOp("*"):
			p.expression()
		default:
			if t := p.peek(); t.kind == tName && !t.kw {
				if n := p.peekN(1); n.kind == tOp && n.text == "=" {
					p.advance()
					p.advance()
					p.expression()
					break
				}
			}
			p.namedExpression()
			if p.isKw("for") || p.isKw("async") {
				p.comprehension()
			}
		}
		if !p.acceptOp(",") {
			break
		}
	}
}

func (p *parser) slices() {
	for {
		p.slice()
		if !p.acceptOp(",") || p.isOp("]") {
			return
		}
	}
}

func (p *parser) slice() {
	if p.acceptOp("*") {
		p.bitwiseOr()
		return
	}
	if !p.isOp(":") {
		p.namedExpression()
		if !p.isOp(":") {
			return
		}
	}
	p.expectOp(":")
	if !p.isOp(":") && !p.isOp(",") && !p.isOp("]") {
		p.expression()
	}
	if p.acceptOp(":") && !p.isOp(",") && !p.isOp("]") {
		p.expression()
	}
}

func (p *parser) comprehension() {
	for p.isKw("for") || p.isKw("async") {
		p.acceptKw("async")
		p.expectKw("for")
		p.targets()
		p.expectKw("in")
		p.disjunction()
		for p.acceptKw("if") {
			p.disjunction()
		}
	}
}

func (p *parser) yieldExpr() {
	if p.funcs == 0 {
		p.fail()
	}
	p.expectKw("yield")
	if p.acceptKw("from") {
		p.expression()
		return
	}
	if !p.exprEnds() {
		p.starExpressions()
	}
}

func (p *parser) atom() ex {
	p.enter()
	defer p.leave()
	t := p.peek()
	switch t.kind {
	case tNumber:
		p.advance()
		return ex{kind: exLiteral}
	case tString:
		for p.peek().kind == tString {
			p.advance()
		}
		return ex{kind: exLiteral}
	case tName:
		switch t.text {
		case "True", "False", "None":
			p.advance()
			return ex{kind: exLiteral}
		}
		if t.kw {
			p.fail()
		}
		p.advance()
		return ex{kind: exName, name: t.text, target: true}
	case tOp:
		switch t.text {
		case "...":
			p.advance()
			return ex{kind: exLiteral}
		case "(":
			return p.paren()
		case "[":
			return p.list()
		case "{":
			return p.brace()
		}
	}
	p.fail()
	return ex{}
}

func (p *parser) paren() ex {
	p.expectOp("(")
	if p.acceptOp(")") {
		return ex{kind: exLiteral}
	}
	if p.isKw("yield") {
		p.yieldExpr()
		p.expectOp(")")
		return ex{}
	}
	e := p.starNamedExpression()
	if p.isKw("for") || p.isKw("async") {
		p.comprehension()
		p.expectOp(")")
		return ex{}
	}
	if p.isOp(",") {
		target := e.target
		for p.acceptOp(",") {
			if p.isOp(")") {
				break
			}
			target = p.starNamedExpression().target && target
		}
		e = ex{target: target}
	}
	p.expectOp(")")
	e.tuple = false
	return e
}

func (p *parser) list() ex {
	p.expectOp("[")
	if p.acceptOp("]") {
		return ex{kind: exLiteral}
	}
	first := p.starNamedExpression()
	if p.isKw("for") || p.isKw("async") {
		p.comprehension()
		p.expectOp("]")
		return ex{}
	}
	calls, literal, target := first.kind == exCall, first.kind == exLiteral, first.target
	names := append([]string(nil), first.calls...)
	for p.acceptOp(",") {
		if p.isOp("]") {
			break
		}
		e := p.starNamedExpression()
		calls = calls && e.kind == exCall
		literal = literal && e.kind == exLiteral
		target = target && e.target
		names = append(names, e.calls...)
	}
	p.expectOp("]")
	switch {
	case calls:
		return ex{kind: exCallList, calls: names}
	case literal:
		return ex{kind: exLiteral}
	}
	return ex{target: target}
}

func (p *parser) brace() ex {
	p.expectOp("{")
	if p.acceptOp("}") {
		return ex{kind: exLiteral}
	}
	literal := true
	item := func() (dict bool) {
		if p.acceptOp("**") {
			p.bitwiseOr()
			literal = false
			return true
		}
		k := p.starNamedExpression()
		if p.acceptOp(":") {
			v := p.expression()
			literal = literal && k.kind == exLiteral && v.kind == exLiteral
			return true
		}
		literal = literal && k.kind == exLiteral
		return false
	}
	dict := item()
	if p.isKw("for") || p.isKw("async") {
		p.comprehension()
		p.expectOp("}")
		return ex{}
	}
	for p.acceptOp(",") {
		if p.isOp("}") {
			break
		}
		if item() != dict {
			p.fail()
		}
	}
	p.expectOp("}")
	if literal {
		return ex{kind: exLiteral}
	}
	return ex{}
}
