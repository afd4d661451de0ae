package testcase

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
)

// A JSON document as a tree that remembers where each value is, so that
// an inputs file's errors name the line and column of the value they are
// about (a draw's inputs: drawinputs.go), not only its syntax errors
// (jsonPos).

// jnode is one JSON value: its kind ('{' object, '[' array, 's' string,
// 'n' number, 'b' bool, '0' null), where it starts and ends in the
// document (byte offsets), an object's keys and values in order, an
// array's elements, a string's or number's value.
type jnode struct {
	kind     byte
	off, end int
	keys     []string
	vals     []*jnode
	elems    []*jnode
	str      string
	num      json.Number
	b        bool
	raw      []byte
}

// parseJSONTree parses data, one JSON value. A syntax error is
// encoding/json's *json.SyntaxError (jsonPos positions it).
func parseJSONTree(data []byte) (*jnode, error) {
	// encoding/json's own syntax check first: its errors carry the offset.
	var probe any
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := readJNode(dec, data)
	if err != nil {
		return nil, err
	}
	return n, nil
}

// skipSep is the offset of the first byte at or after off that is not
// white space, ':' or ',' (where the next token starts).
func skipSep(data []byte, off int) int {
	for off < len(data) && strings.IndexByte(" \t\r\n:,", data[off]) >= 0 {
		off++
	}
	return off
}

func readJNode(dec *json.Decoder, data []byte) (*jnode, error) {
	n := &jnode{off: skipSep(data, int(dec.InputOffset()))}
	tok, err := dec.Token()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, io.ErrUnexpectedEOF
		}
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		n.kind = byte(t)
		for dec.More() {
			if t == '{' {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				n.keys = append(n.keys, k.(string))
			}
			v, err := readJNode(dec, data)
			if err != nil {
				return nil, err
			}
			if t == '{' {
				n.vals = append(n.vals, v)
			} else {
				n.elems = append(n.elems, v)
			}
		}
		if _, err := dec.Token(); err != nil {
			return nil, err
		}
	case string:
		n.kind, n.str = 's', t
	case json.Number:
		n.kind, n.num = 'n', t
	case bool:
		n.kind, n.b = 'b', t
	case nil:
		n.kind = '0'
	}
	n.end = int(dec.InputOffset())
	n.raw = data[n.off:n.end]
	return n, nil
}

// get is an object's value of key, nil when it has none.
func (n *jnode) get(key string) *jnode {
	for i, k := range n.keys {
		if k == key {
			return n.vals[i]
		}
	}
	return nil
}

// kindName names a JSON kind for messages.
func (n *jnode) kindName() string {
	return map[byte]string{'{': "an object", '[': "an array", 's': "a string", 'n': "a number", 'b': "a bool", '0': "null"}[n.kind]
}

// jsonDoc positions a document's values: file, the bytes lineCol counts
// in (a case file's whole text, or the inputs file), and base, the
// offset of the parsed part within them.
type jsonDoc struct {
	file string
	data []byte
	base int
}

// errorf is an error positioned at n: "file:line:col: msg".
func (d jsonDoc) errorf(n *jnode, format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf("%s:%s: %s", d.file, lineCol(d.data, d.base+n.off), fmt.Sprintf(format, args...))}
}

// keysOf lists an object's allowed keys for a message.
func keysOf(allowed []string) string {
	s := append([]string(nil), allowed...)
	sort.Strings(s)
	return strings.Join(s, ", ")
}

// uint32Of reads n as a whole number in [lo, 2^32 − 1].
func (d jsonDoc) uint32Of(n *jnode, what string, lo uint64) (uint32, error) {
	v, err := d.intOf(n, what, int64(lo), 1<<32-1)
	return uint32(v), err
}

// intOf reads n as a whole number in [lo, hi].
func (d jsonDoc) intOf(n *jnode, what string, lo, hi int64) (int64, error) {
	if n.kind != 'n' {
		return 0, d.errorf(n, "%s: want a whole number, got %s", what, n.kindName())
	}
	v, err := n.num.Int64()
	if err != nil || v < lo || v > hi {
		return 0, d.errorf(n, "%s: %s is not a whole number in [%d, %d]", what, n.num, lo, hi)
	}
	return v, nil
}

// numberOf reads n as a finite number.
func (d jsonDoc) numberOf(n *jnode, what string) (float64, error) {
	if n.kind != 'n' {
		return 0, d.errorf(n, "%s: want a number, got %s", what, n.kindName())
	}
	v, err := n.num.Float64()
	if err != nil {
		return 0, d.errorf(n, "%s: %s is not a finite number", what, n.num)
	}
	return v, nil
}

// stringOf reads n as a string.
func (d jsonDoc) stringOf(n *jnode, what string) (string, error) {
	if n.kind != 's' {
		return "", d.errorf(n, "%s: want a string, got %s", what, n.kindName())
	}
	return n.str, nil
}
