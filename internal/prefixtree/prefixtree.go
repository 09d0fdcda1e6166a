// Package prefixtree finds which of a set of literals start at a place in
// a text by one walk of a prefix tree of them: the work at a place is at
// most the length of the longest literal that starts there, however many
// literals there are, where comparing each literal that begins with the
// place's byte costs their number.
package prefixtree

import "slices"

// Tree is a prefix tree of literals, each added under a key. The zero
// Tree is empty. A Tree is not changed by Match, so one built ahead can
// be read by many goroutines at once.
type Tree struct {
	// root is, for each byte, 1 + the node a literal beginning with it
	// leads to, or 0.
	root  [256]int32
	nodes []node
}

// node is a node of a Tree: the keys of the literals that end there, and
// its children.
type node struct {
	ends []int32
	next []edge
}

// edge leads from a node to the child of byte c.
type edge struct {
	c  byte
	to int32
}

// Add puts lit in t under key k. An empty lit is not added.
func (t *Tree) Add(lit string, k int32) {
	if lit == "" {
		return
	}
	n := t.root[lit[0]] - 1
	if n < 0 {
		t.nodes = append(t.nodes, node{})
		n = int32(len(t.nodes) - 1)
		t.root[lit[0]] = n + 1
	}
	for j := 1; j < len(lit); j++ {
		child := int32(-1)
		for _, e := range t.nodes[n].next {
			if e.c == lit[j] {
				child = e.to
				break
			}
		}
		if child < 0 {
			t.nodes = append(t.nodes, node{})
			child = int32(len(t.nodes) - 1)
			t.nodes[n].next = append(t.nodes[n].next, edge{lit[j], child})
		}
		n = child
	}
	if !slices.Contains(t.nodes[n].ends, k) {
		t.nodes[n].ends = append(t.nodes[n].ends, k)
	}
}

// Starts reports whether some literal begins with byte c: a place whose
// byte no literal begins with needs no Match.
func (t *Tree) Starts(c byte) bool { return t.root[c] != 0 }

// Match appends to buf the keys, in increasing order, of the literals that
// start at s[i], and reports whether s[i:] is a proper prefix of a
// literal: the end of s may cut one, which more text may complete.
func (t *Tree) Match(s string, i int, buf []int32) (keys []int32, partial bool) {
	keys = buf
	n := t.root[s[i]] - 1
	for j := i + 1; n >= 0; j++ {
		nd := &t.nodes[n]
		keys = append(keys, nd.ends...)
		if j == len(s) {
			partial = len(nd.next) > 0
			break
		}
		next := nd.next
		n = -1
		for k := range next {
			if next[k].c == s[j] {
				n = next[k].to
				break
			}
		}
	}
	if len(keys)-len(buf) > 1 {
		slices.Sort(keys[len(buf):])
	}
	return keys, partial
}
