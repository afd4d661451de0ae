package ir

import (
	"fmt"
	"sort"
	"strings"
)

// Pos is a source position: 1-based line and column (column counted in
// bytes). The zero Pos means "no position" (synthesized code).
type Pos struct {
	Line int32 `json:"line"`
	Col  int32 `json:"col"`
}

// IsValid reports whether p names a real source position.
func (p Pos) IsValid() bool { return p.Line > 0 }

func (p Pos) String() string {
	if !p.IsValid() {
		return "-"
	}
	return fmt.Sprintf("%d:%d", p.Line, p.Col)
}

// Error is a positioned diagnostic. It prints as
// "file:line:col: pass: message" (go/scanner style); File and Pass may be
// empty, in which case their parts are omitted.
type Error struct {
	File string
	Pos  Pos
	Pass string // "parse", "check", "flatten", "interp", ...
	Msg  string
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteByte(':')
	}
	if e.Pos.IsValid() {
		fmt.Fprintf(&b, "%d:%d:", e.Pos.Line, e.Pos.Col)
	}
	if b.Len() > 0 {
		b.WriteByte(' ')
	}
	if e.Pass != "" {
		b.WriteString(e.Pass)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Errorf returns a positioned *Error.
func Errorf(file string, pos Pos, pass, format string, args ...any) *Error {
	return &Error{File: file, Pos: pos, Pass: pass, Msg: fmt.Sprintf(format, args...)}
}

// ErrorList is a list of positioned errors, sortable by position. As an
// error it prints one error per line.
type ErrorList []*Error

// Add appends a positioned error.
func (l *ErrorList) Add(file string, pos Pos, pass, format string, args ...any) {
	*l = append(*l, Errorf(file, pos, pass, format, args...))
}

// Sort orders the list by file, line and column.
func (l ErrorList) Sort() {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i], l[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line < b.Pos.Line
		}
		return a.Pos.Col < b.Pos.Col
	})
}

// Err returns nil for an empty list, else the list itself.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}
