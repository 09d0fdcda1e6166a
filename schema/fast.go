package schema

import (
	"bytes"
	"math"
	"math/big"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/kaptinlin/jsonschema"

	"github.com/dialectkit/toolcall/internal/jsonscan"
)

// The fast path validates arguments directly over their bytes, in one pass
// and without allocating, against the keywords tool schemas mostly use:
// type, properties, required, additionalProperties, enum and const of
// scalars, numeric bounds, string and array lengths, object sizes, items,
// and anyOf / oneOf / allOf / $ref over schemas of the same kind. A tool
// whose schema uses anything else (pattern, multipleOf, uniqueItems,
// if/then/else, not, …) has no fast path.
//
// The fast path only ever answers "valid": whatever it cannot vouch for
// (a violation, a key it would have to unescape, a repeated key, an escaped
// surrogate, a number past float64) goes to the library, which decides and
// builds the messages. So both paths agree by construction on everything
// the fast path accepts, and the differential tests hold it to that.

// Type bits of a fast node.
const (
	tNull uint8 = 1 << iota
	tBoolean
	tObject
	tArray
	tNumber
	tString
	tInteger
)

var typeBits = map[string]uint8{
	"null": tNull, "boolean": tBoolean, "object": tObject, "array": tArray,
	"number": tNumber, "string": tString, "integer": tInteger,
}

// fastNode is one compiled schema of the fast path.
type fastNode struct {
	never bool  // the false schema
	types uint8 // allowed types, 0 for any

	// object keywords
	keys       map[string]int // property or required name → index in props
	props      []fastProp
	required   uint64 // bits of props that must be present
	additional *fastNode
	noExtra    bool // additionalProperties: false
	minProps   int
	maxProps   int // -1: none

	// array keywords
	items    *fastNode
	minItems int
	maxItems int // -1: none

	// string keywords
	minLen int
	maxLen int // -1: none

	// numeric keywords
	bounds []bound

	// enum and const: the instance must equal one of these
	values    []constant
	hasValues bool

	anyOf, oneOf, allOf []*fastNode
	ref                 *fastNode
}

type fastProp struct {
	node     *fastNode // nil: no schema of its own (a required name only)
	declared bool      // named by properties, rather than only by required
}

// bound is one numeric limit.
type bound struct {
	f         float64
	r         *big.Rat
	lower     bool // minimum or exclusiveMinimum
	exclusive bool
}

// constant is one enum or const value (scalars only).
type constant struct {
	kind uint8 // tNull, tBoolean, tString, tNumber
	b    bool
	s    string
	f    float64
	r    *big.Rat
}

// maxFastProps bounds the properties of one fast object node (a bit each).
const maxFastProps = 64

// compileFast compiles s for the fast path, or returns nil when s uses a
// keyword the fast path does not handle.
func compileFast(s *jsonschema.Schema) *fastNode {
	c := fastCompiler{done: map[*jsonschema.Schema]*fastNode{}, busy: map[*jsonschema.Schema]bool{}}
	n, ok := c.node(s, 0)
	if !ok {
		return nil
	}
	return n
}

type fastCompiler struct {
	done map[*jsonschema.Schema]*fastNode
	busy map[*jsonschema.Schema]bool
}

const draft202012 = "https://json-schema.org/draft/2020-12/schema"

func (c *fastCompiler) node(s *jsonschema.Schema, depth int) (*fastNode, bool) {
	if s == nil {
		return nil, true
	}
	if n, ok := c.done[s]; ok {
		return n, true
	}
	if c.busy[s] || depth > maxSchemaHops {
		return nil, false // a recursive schema: the library handles cycles its own way
	}
	c.busy[s] = true
	defer delete(c.busy, s)
	if s.Boolean != nil {
		n := &fastNode{never: !*s.Boolean, maxProps: -1, maxItems: -1, maxLen: -1}
		c.done[s] = n
		return n, true
	}
	if s.Schema != "" && s.Schema != draft202012 && s.Schema != draft202012+"#" {
		return nil, false
	}
	if s.DynamicRef != "" || s.Not != nil || s.If != nil || s.Then != nil || s.Else != nil ||
		len(s.DependentSchemas) > 0 || len(s.DependentRequired) > 0 || len(s.PrefixItems) > 0 ||
		s.Contains != nil || s.MinContains != nil || s.MaxContains != nil ||
		s.PatternProperties != nil || s.PropertyNames != nil ||
		s.UnevaluatedItems != nil || s.UnevaluatedProperties != nil ||
		s.MultipleOf != nil || s.Pattern != nil || (s.UniqueItems != nil && *s.UniqueItems) ||
		s.ContentEncoding != nil || s.ContentMediaType != nil || s.ContentSchema != nil {
		return nil, false
	}
	if s.Ref != "" && s.ResolvedRef == nil {
		return nil, false
	}
	n := &fastNode{maxProps: -1, maxItems: -1, maxLen: -1}
	for _, t := range s.Type {
		bit, ok := typeBits[t]
		if !ok {
			return nil, false
		}
		n.types |= bit
	}
	if s.Properties != nil || len(s.Required) > 0 {
		n.keys = map[string]int{}
		if s.Properties != nil {
			for name, sub := range *s.Properties {
				sn, ok := c.node(sub, depth+1)
				if !ok || sn == nil {
					return nil, false
				}
				n.keys[name] = len(n.props)
				n.props = append(n.props, fastProp{node: sn, declared: true})
			}
		}
		for _, name := range s.Required {
			i, ok := n.keys[name]
			if !ok {
				i = len(n.props)
				n.keys[name] = i
				n.props = append(n.props, fastProp{})
			}
			if i < maxFastProps {
				n.required |= 1 << i
			}
		}
		if len(n.props) > maxFastProps {
			return nil, false
		}
	}
	if ap := s.AdditionalProperties; ap != nil {
		if ap.Boolean != nil && !*ap.Boolean {
			n.noExtra = true
		} else {
			sn, ok := c.node(ap, depth+1)
			if !ok {
				return nil, false
			}
			n.additional = sn
		}
	}
	if s.Items != nil {
		sn, ok := c.node(s.Items, depth+1)
		if !ok {
			return nil, false
		}
		n.items = sn
	}
	var ok bool
	if n.minProps, ok = limit(s.MinProperties, 0); !ok {
		return nil, false
	}
	if n.maxProps, ok = limit(s.MaxProperties, -1); !ok {
		return nil, false
	}
	if n.minItems, ok = limit(s.MinItems, 0); !ok {
		return nil, false
	}
	if n.maxItems, ok = limit(s.MaxItems, -1); !ok {
		return nil, false
	}
	if n.minLen, ok = limit(s.MinLength, 0); !ok {
		return nil, false
	}
	if n.maxLen, ok = limit(s.MaxLength, -1); !ok {
		return nil, false
	}
	for _, b := range []struct {
		r                *jsonschema.Rat
		lower, exclusive bool
	}{{s.Minimum, true, false}, {s.ExclusiveMinimum, true, true}, {s.Maximum, false, false}, {s.ExclusiveMaximum, false, true}} {
		if b.r == nil || b.r.Rat == nil {
			continue
		}
		f, _ := b.r.Float64()
		if math.IsInf(f, 0) {
			return nil, false
		}
		n.bounds = append(n.bounds, bound{f: f, r: b.r.Rat, lower: b.lower, exclusive: b.exclusive})
	}
	if s.Enum != nil {
		n.hasValues = true
		for _, v := range s.Enum {
			k, ok := constantOf(v)
			if !ok {
				return nil, false
			}
			n.values = append(n.values, k)
		}
	}
	if s.Const != nil && s.Const.IsSet {
		k, ok := constantOf(s.Const.Value)
		if !ok {
			return nil, false
		}
		if n.hasValues {
			// Both: the value must be the constant and in the enum.
			if !slicesContainsConstant(n.values, k) {
				n.never = true
			}
		}
		n.hasValues = true
		n.values = []constant{k}
	}
	for _, group := range []struct {
		in  []*jsonschema.Schema
		out *[]*fastNode
	}{{s.AnyOf, &n.anyOf}, {s.OneOf, &n.oneOf}, {s.AllOf, &n.allOf}} {
		for _, sub := range group.in {
			sn, ok := c.node(sub, depth+1)
			if !ok || sn == nil {
				return nil, false
			}
			*group.out = append(*group.out, sn)
		}
	}
	if s.ResolvedRef != nil {
		sn, ok := c.node(s.ResolvedRef, depth+1)
		if !ok || sn == nil {
			return nil, false
		}
		n.ref = sn
	}
	c.done[s] = n
	return n, true
}

func slicesContainsConstant(list []constant, k constant) bool {
	for _, v := range list {
		if v.kind == k.kind && v.b == k.b && v.s == k.s && (v.r == nil) == (k.r == nil) && (v.r == nil || v.r.Cmp(k.r) == 0) {
			return true
		}
	}
	return false
}

// limit reads a count keyword: a whole, non-negative number.
func limit(p *float64, def int) (int, bool) {
	if p == nil {
		return def, true
	}
	v := *p
	if v < 0 || v != math.Trunc(v) || v > math.MaxInt32 {
		return 0, false
	}
	return int(v), true
}

// constantOf turns a decoded schema constant into a fast constant; objects
// and arrays are left to the library.
func constantOf(v any) (constant, bool) {
	switch x := v.(type) {
	case nil:
		return constant{kind: tNull}, true
	case bool:
		return constant{kind: tBoolean, b: x}, true
	case string:
		return constant{kind: tString, s: x}, true
	}
	var text string
	switch x := v.(type) {
	case interface{ String() string }:
		text = x.String()
	case float64:
		text = strconv.FormatFloat(x, 'g', -1, 64)
	case int:
		text = strconv.Itoa(x)
	case int64:
		text = strconv.FormatInt(x, 10)
	default:
		return constant{}, false
	}
	r, ok := new(big.Rat).SetString(text)
	if !ok {
		return constant{}, false
	}
	f, _ := r.Float64()
	if math.IsInf(f, 0) {
		return constant{}, false
	}
	return constant{kind: tNumber, r: r, f: f}, true
}

// fastResult is what the fast path can say about a value.
type fastResult uint8

const (
	fastValid fastResult = iota
	fastInvalid
	fastUnsure
)

// maxFastDepth bounds the nesting the fast path walks.
const maxFastDepth = 128

// maxUndeclared bounds how many keys one object may have outside its
// declared properties: their uniqueness is checked by comparing them pairwise.
const maxUndeclared = 32

// validFast reports whether args, which must be valid JSON, certainly
// satisfy the node, with every top-level key in names when names is not nil.
func (n *fastNode) validFast(args []byte, names map[string]struct{}) bool {
	return n.check(args, names) == fastValid
}

// check is validFast with the three answers told apart.
func (n *fastNode) check(args []byte, names map[string]struct{}) fastResult {
	w := walker{b: args, names: names}
	w.i = w.skipSpace(0)
	if w.i >= len(args) || args[w.i] != '{' {
		return fastInvalid
	}
	return w.value(n, 0, true)
}

// walker walks JSON text already known to be valid.
type walker struct {
	b     []byte
	i     int
	names map[string]struct{} // strict top-level names, or nil
}

func (w *walker) skipSpace(i int) int {
	for i < len(w.b) {
		switch w.b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// value checks the value at w.i against n and leaves w.i after it. A nil n
// accepts any value, which is still walked for repeated keys and escapes.
func (w *walker) value(n *fastNode, depth int, root bool) fastResult {
	if depth > maxFastDepth {
		return fastUnsure
	}
	start := w.i
	if n == nil || n.never || len(n.anyOf)+len(n.oneOf)+len(n.allOf) > 0 || n.ref != nil {
		if n == nil {
			return w.skip(depth)
		}
		if n.never {
			return fastInvalid
		}
		// Every applicator sees the same value: walk it once per schema.
		end := -1
		check := func(m *fastNode) fastResult {
			w.i = start
			r := w.value(m, depth+1, false)
			if r == fastValid {
				end = w.i
			}
			return r
		}
		res := w.own(n, depth, root)
		end = w.i
		if res != fastValid {
			return res
		}
		if n.ref != nil {
			if r := check(n.ref); r != fastValid {
				return r
			}
		}
		for _, m := range n.allOf {
			if r := check(m); r != fastValid {
				return r
			}
		}
		if len(n.anyOf) > 0 {
			res := fastInvalid
			for _, m := range n.anyOf {
				r := check(m)
				if r == fastValid {
					res = fastValid
					break
				}
				if r == fastUnsure {
					res = fastUnsure
				}
			}
			if res != fastValid {
				return res
			}
		}
		if len(n.oneOf) > 0 {
			matched := 0
			for _, m := range n.oneOf {
				switch check(m) {
				case fastValid:
					matched++
				case fastUnsure:
					return fastUnsure
				}
			}
			if matched != 1 {
				return fastInvalid
			}
		}
		w.i = end
		return fastValid
	}
	return w.own(n, depth, root)
}

// own checks the value at w.i against n's own keywords, applicators aside.
func (w *walker) own(n *fastNode, depth int, root bool) fastResult {
	if n.never {
		return fastInvalid
	}
	switch c := w.b[w.i]; c {
	case '{':
		if n.types != 0 && n.types&tObject == 0 || n.hasValues {
			return fastInvalid
		}
		return w.object(n, depth, root)
	case '[':
		if n.types != 0 && n.types&tArray == 0 || n.hasValues {
			return fastInvalid
		}
		return w.array(n, depth)
	case '"':
		if n.types != 0 && n.types&tString == 0 {
			return fastInvalid
		}
		return w.str(n)
	case 't', 'f', 'n':
		kind, size, val := tBoolean, 4, c == 't'
		switch c {
		case 'f':
			size = 5
		case 'n':
			kind = tNull
		}
		w.i += size
		if n.types != 0 && n.types&kind == 0 {
			return fastInvalid
		}
		if n.hasValues {
			for _, v := range n.values {
				if v.kind == kind && (kind == tNull || v.b == val) {
					return fastValid
				}
			}
			return fastInvalid
		}
		return fastValid
	default:
		return w.number(n)
	}
}

// skip walks any value, checking only what the library's decoder would
// refuse that the validity check before the walk lets through.
func (w *walker) skip(depth int) fastResult {
	return w.own(&anyNode, depth, false)
}

var anyNode = fastNode{maxProps: -1, maxItems: -1, maxLen: -1}

func (w *walker) object(n *fastNode, depth int, root bool) fastResult {
	w.i++ // {
	var (
		seen       uint64
		count      int
		undeclared [maxUndeclared][]byte
		nUndecl    int
	)
	w.i = w.skipSpace(w.i)
	if w.b[w.i] == '}' {
		w.i++
	} else {
		for {
			w.i = w.skipSpace(w.i)
			kStart := w.i + 1
			kEnd, escaped := w.stringEnd(w.i)
			if escaped {
				return fastUnsure // a key to unescape before comparing it
			}
			key := w.b[kStart:kEnd]
			w.i = w.skipSpace(kEnd + 1)
			w.i = w.skipSpace(w.i + 1) // :
			count++
			var sub *fastNode
			idx, known := -1, false
			if n.keys != nil {
				idx, known = n.keys[unsafeString(key)]
			}
			declared := known && n.props[idx].declared
			if known {
				bit := uint64(1) << idx
				if seen&bit != 0 {
					return fastUnsure // repeated key
				}
				seen |= bit
			}
			if !declared {
				if !known {
					for _, k := range undeclared[:nUndecl] {
						if bytes.Equal(k, key) {
							return fastUnsure
						}
					}
					if nUndecl == maxUndeclared {
						return fastUnsure
					}
					undeclared[nUndecl] = key
					nUndecl++
				}
				if root && w.names != nil {
					if _, ok := w.names[unsafeString(key)]; !ok {
						return fastInvalid
					}
				}
				if n.noExtra {
					return fastInvalid
				}
				sub = n.additional
			} else {
				sub = n.props[idx].node
			}
			if r := w.value(sub, depth+1, false); r != fastValid {
				return r
			}
			w.i = w.skipSpace(w.i)
			if w.b[w.i] == ',' {
				w.i++
				continue
			}
			w.i++ // }
			break
		}
	}
	if seen&n.required != n.required || count < n.minProps || n.maxProps >= 0 && count > n.maxProps {
		return fastInvalid
	}
	return fastValid
}

func (w *walker) array(n *fastNode, depth int) fastResult {
	w.i++ // [
	count := 0
	w.i = w.skipSpace(w.i)
	if w.b[w.i] == ']' {
		w.i++
	} else {
		for {
			w.i = w.skipSpace(w.i)
			if r := w.value(n.items, depth+1, false); r != fastValid {
				return r
			}
			count++
			w.i = w.skipSpace(w.i)
			if w.b[w.i] == ',' {
				w.i++
				continue
			}
			w.i++ // ]
			break
		}
	}
	if count < n.minItems || n.maxItems >= 0 && count > n.maxItems {
		return fastInvalid
	}
	return fastValid
}

// stringEnd returns the index of the closing quote of the string opening
// at i (where jsonscan.StringEnd finds it), and whether the string holds an
// escape.
func (w *walker) stringEnd(i int) (int, bool) {
	end := jsonscan.StringEnd(w.b, i)
	return end, bytes.IndexByte(w.b[i+1:end], '\\') >= 0
}

func (w *walker) str(n *fastNode) fastResult {
	start := w.i + 1
	end, escaped := w.stringEnd(w.i)
	w.i = end + 1
	raw := w.b[start:end]
	length := -1
	if escaped && (n.minLen > 0 || n.maxLen >= 0 || bytes.Contains(raw, []byte(`\u`))) {
		// Count the characters of the decoded string; an escaped surrogate
		// the decoder may refuse or replace is left to the library.
		length = 0
		for j := 0; j < len(raw); {
			c := raw[j]
			if c != '\\' {
				if c&0xC0 != 0x80 {
					length++
				}
				j++
				continue
			}
			if raw[j+1] != 'u' {
				length++
				j += 2
				continue
			}
			if j+6 > len(raw) {
				return fastUnsure
			}
			r, err := strconv.ParseUint(unsafeString(raw[j+2:j+6]), 16, 16)
			if err != nil || r >= 0xD800 && r <= 0xDFFF {
				return fastUnsure
			}
			length++
			j += 6
		}
	}
	if n.minLen > 0 || n.maxLen >= 0 {
		if length < 0 {
			// No escape: the raw bytes are the string.
			length = utf8.RuneCount(raw)
		}
		if length < n.minLen || n.maxLen >= 0 && length > n.maxLen {
			return fastInvalid
		}
	}
	if n.hasValues {
		if escaped {
			return fastUnsure
		}
		for _, v := range n.values {
			if v.kind == tString && v.s == unsafeString(raw) {
				return fastValid
			}
		}
		return fastInvalid
	}
	return fastValid
}

func (w *walker) number(n *fastNode) fastResult {
	start := w.i
	i := w.i
	for i < len(w.b) {
		c := w.b[i]
		if c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' {
			i++
			continue
		}
		break
	}
	w.i = i
	text := w.b[start:i]
	if n.types != 0 {
		if n.types&tNumber == 0 {
			if n.types&tInteger == 0 {
				return fastInvalid
			}
			integral, ok := isIntegral(text)
			if !ok {
				return fastUnsure
			}
			if !integral {
				return fastInvalid
			}
		}
	}
	if len(n.bounds) == 0 && !n.hasValues {
		return fastValid
	}
	f, err := strconv.ParseFloat(unsafeString(text), 64)
	if err != nil {
		return fastUnsure
	}
	for _, b := range n.bounds {
		cmp := 0
		switch {
		case f < b.f:
			cmp = -1
		case f > b.f:
			cmp = 1
		default:
			var ok bool
			if cmp, ok = exactCompare(text, b.r); !ok {
				return fastUnsure
			}
		}
		if b.lower && (cmp < 0 || b.exclusive && cmp == 0) || !b.lower && (cmp > 0 || b.exclusive && cmp == 0) {
			return fastInvalid
		}
	}
	if n.hasValues {
		for _, v := range n.values {
			if v.kind == tNumber && v.f == f {
				if cmp, ok := exactCompare(text, v.r); !ok {
					return fastUnsure
				} else if cmp == 0 {
					return fastValid
				}
			}
		}
		return fastInvalid
	}
	return fastValid
}

// exactCompare compares a JSON number with r exactly. Called only when the
// float64 values tie.
func exactCompare(text []byte, r *big.Rat) (int, bool) {
	if x, ok := smallInt(text); ok && r.IsInt() && r.Num().IsInt64() {
		y := r.Num().Int64()
		switch {
		case x < y:
			return -1, true
		case x > y:
			return 1, true
		}
		return 0, true
	}
	v, ok := new(big.Rat).SetString(string(text))
	if !ok {
		return 0, false
	}
	return v.Cmp(r), true
}

// smallInt reads a plain integer of at most 18 digits.
func smallInt(text []byte) (int64, bool) {
	neg := false
	if len(text) > 0 && text[0] == '-' {
		neg, text = true, text[1:]
	}
	if len(text) == 0 || len(text) > 18 {
		return 0, false
	}
	var v int64
	for _, c := range text {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	if neg {
		v = -v
	}
	return v, true
}

// isIntegral reports whether a JSON number has no fractional part
// ("5", "5.0", "1e3", "150e-2" is not), as the library's exact numbers see it.
func isIntegral(text []byte) (integral, ok bool) {
	i := 0
	if i < len(text) && text[i] == '-' {
		i++
	}
	intStart := i
	for i < len(text) && isDigit(text[i]) {
		i++
	}
	intLen := i - intStart
	fracStart, fracLen := i, 0
	if i < len(text) && text[i] == '.' {
		i++
		fracStart = i
		for i < len(text) && isDigit(text[i]) {
			i++
		}
		fracLen = i - fracStart
	}
	exp := 0
	if i < len(text) && (text[i] == 'e' || text[i] == 'E') {
		i++
		neg := false
		if i < len(text) && (text[i] == '+' || text[i] == '-') {
			neg = text[i] == '-'
			i++
		}
		for i < len(text) && isDigit(text[i]) {
			exp = exp*10 + int(text[i]-'0')
			if exp > 1<<20 {
				return false, false
			}
			i++
		}
		if neg {
			exp = -exp
		}
	}
	// The last non-zero digit, counted over integer then fraction digits.
	last := -1
	for k := fracLen - 1; k >= 0; k-- {
		if text[fracStart+k] != '0' {
			last = intLen + k
			break
		}
	}
	if last < 0 {
		for k := intLen - 1; k >= 0; k-- {
			if text[intStart+k] != '0' {
				last = k
				break
			}
		}
	}
	if last < 0 {
		return true, true // zero
	}
	// Digit at index k has place value 10^(intLen+exp-1-k).
	return intLen+exp-1-last >= 0, true
}

func unsafeString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}
