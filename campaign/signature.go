package campaign

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/gpudiff/gpudiff/baseline"
	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/findings"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// Signature is the de-duplication key of a failure: one bug met by many
// programs should get one signature, and two bugs two. It is a string of
// '/'-separated parts, the first two always the finding's class and
// adapter, so that a baseline pattern "class/adapter/*" (Baseline) knows
// every failure of a class on an adapter:
//
//	compile-error/ADAPTER/FORMAT/mHASH  a compile error: the rejected format
//	                                    and 16 hex digits of SHA-256 over the
//	                                    stack's error line with digit runs
//	                                    replaced by N (messageKey), e.g.
//	                                    "Internal error: N:N(N): error: LHS
//	                                    of `||' must be scalar boolean"
//	CLASS/ADAPTER/FORM                  any other finding: FORM is the
//	                                    normalized form of the program (Form)
//
// m and kernel are the program the failure was found on after shrinking
// (or the unshrunk program where a campaign does not shrink it). The
// program's hash is not part of a signature: two shrunk programs that
// meet one bug differ in names, constants, counts and in the incidental
// statements the shrinker could not remove, and none of these count.
func Signature(f check.Finding, m *ir.Module, kernel string) string {
	if k, ok := messageSignature(f); ok {
		return k
	}
	return signaturePrefix(f) + "/" + Form(f.Class, m, kernel)
}

// signaturePrefix is the part of a form signature that names the finding,
// "class/adapter".
func signaturePrefix(f check.Finding) string { return string(f.Class) + "/" + f.Adapter }

// messageSignature is Signature for a compile error with a message.
func messageSignature(f check.Finding) (string, bool) {
	if f.Class != check.ClassCompileError || f.Message == "" {
		return "", false
	}
	sum := sha256.Sum256([]byte(check.MessageKey(f.Message)))
	format := string(f.Format)
	if f.Stage == oracle.StageFragment {
		format += "-fragment" // compute signatures stay what they were before stages
	}
	return fmt.Sprintf("%s/%s/%s/m%x", f.Class, f.Adapter, format, sum[:8]), true
}

// CaseFileName is the corpus file name of a failure: class, adapter (with
// ':' and '/' as '-', '#' dropped) and the first 12 hex digits of hash,
// the saved program's canonical hash, e.g.
// "flatten-interp-3f2a9c1d07e4.wgsl".
func CaseFileName(f check.Finding, hash string) string {
	a := strings.NewReplacer(":", "-", "/", "-", "#", "").Replace(f.Adapter)
	return fmt.Sprintf("%s-%s-%s.wgsl", f.Class, a, hash[:12])
}

// Form is the normalized form of a program for the signature of a
// failure of class: the set of constructs, found in the kernel and every
// function it calls, that can implicate the component the class blames,
// each named once and joined by '+' — names, constants, counts, types of
// values and statement order do not count. The constructs are:
//
//   - branches: if, else (an if whose else arm is not empty), switch,
//     loop, break, continue, in this order;
//   - operations, sorted: OP.T for an operator application or compound
//     assignment (add sub mul div rem and or xor shl shr land lor eq ne lt
//     le gt ge, unary neg not compl) with T the scalar type of its left
//     operand (a vector's or array's element type; "struct"), NAME.T for
//     a builtin call with T that of its first argument, conv.T.U and
//     bitcast.T.U for a conversion from U to T, select, dynindex (an
//     index that is not a literal) and swizzle, and OP.D for a texture
//     builtin on a texture of dimension D (textureLoad.2d_array).
//
// The classes that blame flatten ("flatten", "flatten-refused") take the
// branches only: predication is a rule per branch construct (condition
// hoisting, else and switch masks, unrolling with break and continue
// masks), and the operations a shrunk program keeps around such a bug —
// the global a callee changes, the comparison in the condition — are
// whatever the generator drew. Every other class blames a stack, which
// most often compiles an operation wrongly: it takes branches and
// operations. Calls and early returns are not constructs of the form: the
// generator puts them in nearly every program (a helper called from a
// condition, returning early), so a shrunk program keeps one whenever it
// carries the side effect a bug needs, whichever bug that is; the
// functions called are walked all the same. A program with none of the
// constructs is "straight". A form is never hashed, however long (an
// unshrunk program, one whose shrinking a deadline cut short, a bug that
// needs many operations): a family pattern such as "*workgroupBarrier*"
// must see the constructs of every form (LegacySignature gives the hashed form
// earlier versions gave such programs, which a baseline may still hold).
// A form never holds '/', '#', a blank or a path.Match metacharacter.
//
// The scheme trades resolution for stability: one flatten bug over 300
// programs gives one to three forms (the constructs its shrunk programs
// cannot do without, plus a loop or switch some keep), and two flatten
// bugs in the rule of one construct share a signature.
func Form(class check.Class, m *ir.Module, kernel string) string {
	form := strings.Join(formTokens(class, m, kernel), "+")
	if form == "" {
		return "straight"
	}
	return form
}

// legacyFormBytes is the length past which gpudiff before 2026-12-03
// replaced a form by its hash (LegacySignature).
const legacyFormBytes = 128

// LegacySignature returns the signature gpudiff gave sig's failure before
// forms were kept verbatim: a form longer than 128 bytes was "f" and 16
// hex digits of its SHA-256. It returns sig and false when the two are
// the same (a message signature, or a form of at most 128 bytes). A
// baseline written by such a version (a --report JSON, a text list) knows
// a failure when it knows either.
func LegacySignature(sig string) (string, bool) {
	i := strings.LastIndexByte(sig, '/')
	form := sig[i+1:] // a message signature's "m" and 16 hex digits is never that long
	if len(form) <= legacyFormBytes {
		return sig, false
	}
	sum := sha256.Sum256([]byte(form))
	return fmt.Sprintf("%s/f%x", sig[:i], sum[:8]), true
}

// baselineKnows reports whether b knows sig, or the legacy form of sig
// (LegacySignature); which is the entry that knows it.
func baselineKnows(b *baseline.Set, sig string) (which string, ok bool) {
	if w, ok := b.Which(sig); ok {
		return w, true
	}
	if old, ok := LegacySignature(sig); ok {
		return b.Which(old)
	}
	return "", false
}

// knows is baselineKnows without the entry.
func knows(b *baseline.Set, sig string) bool {
	_, ok := baselineKnows(b, sig)
	return ok
}

// formTokens returns Form's constructs in order: control constructs in
// the order listed there, then operations sorted.
func formTokens(class check.Class, m *ir.Module, kernel string) []string {
	ops := !check.BlamesFlatten(class)
	seen := map[string]bool{}
	var control, other []string
	add := func(list *[]string, tok string) {
		if !seen[tok] {
			seen[tok] = true
			*list = append(*list, tok)
		}
	}
	visited := map[string]bool{}
	var walkFunc func(name string)
	walkFunc = func(name string) {
		f := m.Func(name)
		if f == nil || visited[name] {
			return
		}
		visited[name] = true
		ir.Inspect(f.Body, func(n ir.Node) bool {
			switch n := n.(type) {
			case *ir.If:
				add(&control, "if")
				if len(n.Else.Stmts) > 0 {
					add(&control, "else")
				}
			case *ir.Switch:
				add(&control, "switch")
			case *ir.Loop:
				add(&control, "loop")
			case *ir.Break:
				add(&control, "break")
			case *ir.Continue:
				add(&control, "continue")
			case *ir.Call:
				walkFunc(n.Func)
			}
			if !ops {
				return true
			}
			switch n := n.(type) {
			case *ir.Binary:
				add(&other, binaryNames[n.Op]+"."+scalarName(n.X.Type()))
			case *ir.Assign:
				if n.Op != ir.OpNone {
					add(&other, binaryNames[n.Op]+"."+scalarName(n.LHS.Type()))
				}
			case *ir.Unary:
				add(&other, unaryNames[n.Op]+"."+scalarName(n.X.Type()))
			case *ir.BuiltinCall:
				tok := n.Fn.String()
				if len(n.Args) > 0 {
					tok += "." + scalarName(n.Args[0].Type())
				}
				add(&other, tok)
			case *ir.Convert:
				add(&other, "conv."+scalarName(n.T)+"."+scalarName(n.X.Type()))
			case *ir.Bitcast:
				add(&other, "bitcast."+scalarName(n.T)+"."+scalarName(n.X.Type()))
			case *ir.Select:
				add(&other, "select")
			case *ir.Index:
				if _, lit := n.Index.(*ir.Lit); !lit {
					add(&other, "dynindex")
				}
			case *ir.Swizzle:
				add(&other, "swizzle")
			case *ir.TextureCall:
				tok := n.Op.String()
				if tx := n.Texture(); tx != nil && tx.Type().Tex != nil {
					tok += "." + tx.Type().Tex.Dim.String()
				}
				add(&other, tok)
			}
			return true
		})
	}
	walkFunc(kernel)
	slices.SortFunc(control, func(a, b string) int { return branchOrder[a] - branchOrder[b] })
	slices.Sort(other)
	return append(control, other...)
}

// branchOrder is the order of the branch constructs in a form.
var branchOrder = map[string]int{"if": 0, "else": 1, "switch": 2, "loop": 3, "break": 4, "continue": 5}

// scalarName is the scalar type of t's values: t itself for a scalar, the
// element type of a vector, the innermost element of an array, "struct"
// for a struct.
func scalarName(t *ir.Type) string {
	for t != nil && (t.Kind == ir.KindVec || t.Kind == ir.KindArray) {
		t = t.Elem
	}
	if t != nil && t.Kind == ir.KindStruct {
		return "struct"
	}
	return t.String()
}

var binaryNames = [...]string{ir.OpAdd: "add", ir.OpSub: "sub", ir.OpMul: "mul", ir.OpDiv: "div", ir.OpRem: "rem",
	ir.OpAnd: "and", ir.OpOr: "or", ir.OpXor: "xor", ir.OpShl: "shl", ir.OpShr: "shr", ir.OpLogAnd: "land", ir.OpLogOr: "lor",
	ir.OpEq: "eq", ir.OpNe: "ne", ir.OpLt: "lt", ir.OpLe: "le", ir.OpGt: "gt", ir.OpGe: "ge"}

var unaryNames = [...]string{ir.OpNeg: "neg", ir.OpNot: "not", ir.OpCompl: "compl"}

// errorSignature is the signature of a program gpudiff could not execute
// (class "error"): "error/m" and 16 hex digits of SHA-256 over err's first
// line with digit runs replaced by N, so that one gpudiff bug met by many
// programs is one signature.
func errorSignature(err error) string {
	sum := sha256.Sum256([]byte(check.MessageKey(err.Error())))
	return fmt.Sprintf("error/m%x", sum[:8])
}

// Bug is one signature met in a campaign, with the programs that met it:
// the unit reports count ("3 new bugs in 13 programs").
type Bug struct {
	Signature string `json:"signature"`
	// State is "new", "known" (in the baseline) or "unconfirmed" (a GPU
	// finding a second run did not confirm), as its first program's record.
	State      string      `json:"state"`
	Class      check.Class `json:"class"`             // the first finding's class
	Adapter    string      `json:"adapter,omitempty"` // and adapter
	Implicates string      `json:"implicates"`        // the first program's explanation
	// Programs are the indices of the programs that met the bug, in
	// campaign order, and Seeds their derived seeds (gen.ProgramSeed),
	// same order: each regenerates alone.
	Programs []int    `json:"programs"`
	Seeds    []uint64 `json:"seeds"`
	// Case is the bug's saved case file (relative to the corpus; "" when
	// none was saved: no corpus, or known without shrinking), from the
	// program CaseIndex, shrunk from Stmts to ShrunkStmts statements;
	// CaseError says why a case that should have been saved was not.
	Case        string `json:"case,omitempty"`
	CaseError   string `json:"case_error,omitempty"`
	CaseIndex   int    `json:"case_index"`
	Stmts       int    `json:"stmts"`
	ShrunkStmts int    `json:"shrunk_stmts,omitempty"`
	// Saved is the result the case file was written with, when this run
	// wrote it (ProgramRecord.Saved); not in the JSON report.
	Saved *SavedResult `json:"-"`
	// BugClasses are the bug classes the bug falls in: its first
	// program's ShrunkBugClasses (the classes of the program its
	// signature was taken from).
	BugClasses []string `json:"bug_classes"`
	// KnownBy and KnownAs are a known bug's baseline entry and project
	// finding (ProgramRecord.KnownBy, KnownAs), its first program's.
	KnownBy string `json:"known_by,omitempty"`
	KnownAs string `json:"known_as,omitempty"`
}

// KnownText says what knows a known bug: "findings/X" (its own signature
// is listed under that finding in findings/known.txt), "family of
// findings/X (pattern P)" (a pattern listed there knows it: a re-find of
// that finding under a new signature, or a different bug the pattern
// cannot tell from it), "baseline" or "baseline pattern P" (a --baseline
// entry), "" when the record does not say (a journal of an older gpudiff).
func (b Bug) KnownText() string {
	switch {
	case b.KnownBy == "":
		return ""
	case b.KnownAs != "" && b.KnownBy == b.Signature:
		return b.KnownAs
	case b.KnownAs != "":
		return "family of " + b.KnownAs + " (pattern " + b.KnownBy + ")"
	case b.KnownBy == b.Signature:
		return "baseline"
	}
	return "baseline pattern " + b.KnownBy
}

// KnownBy returns the entry of known that knows sig (baseline.Set.Which:
// sig itself, its LegacySignature or a pattern; "" when none does) and the project finding
// findings/known.txt lists that entry under ("" when it is not there).
func KnownBy(known *baseline.Set, sig string) (entry, finding string) {
	entry, ok := baselineKnows(known, sig)
	if !ok {
		return "", ""
	}
	return entry, projectFindingOf()[entry]
}

// projectFindingOf maps each entry of findings/known.txt to the finding
// it is listed under: the last "# findings/PATH" comment before it in its
// paragraph (lines up to a blank one), as TestProjectFindingsKnowTheFindings
// reads the file.
var projectFindingOf = sync.OnceValue(func() map[string]string {
	out := map[string]string{}
	named := ""
	sc := bufio.NewScanner(bytes.NewReader(findings.Known))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(line, "# findings/"):
			named = strings.Fields(strings.TrimPrefix(line, "# "))[0]
		case line == "":
			named = ""
		case strings.HasPrefix(line, "#"):
		default:
			if _, ok := out[line]; !ok && named != "" {
				out[line] = named
			}
		}
	}
	return out
})

// Bugs groups failure records (Summary.Failures, in campaign order) by
// signature: one Bug per signature, in the order of their first programs.
// The case of a bug is the one saved from the first of its programs that
// has one (a campaign saves one case per signature), else the first
// program's.
func Bugs(failures []ProgramRecord) []Bug {
	var bugs []Bug
	at := map[string]int{}
	for _, r := range failures {
		if r.Signature == "" {
			continue
		}
		k, ok := at[r.Signature]
		if !ok {
			k = len(bugs)
			at[r.Signature] = k
			b := Bug{Signature: r.Signature, State: "new", Implicates: r.Implicates, CaseIndex: r.Index,
				Stmts: r.Stmts, ShrunkStmts: r.ShrunkStmts, CaseError: r.CaseError,
				BugClasses: r.ShrunkBugClasses, KnownBy: r.KnownBy, KnownAs: r.KnownAs}
			if b.BugClasses == nil {
				b.BugClasses = r.BugClasses // a record journaled before ShrunkBugClasses
			}
			switch {
			case r.Known:
				b.State = "known"
			case r.Flaky:
				b.State = "unconfirmed"
			}
			if len(r.Classes) > 0 {
				b.Class = r.Classes[0]
			}
			if len(r.Adapters) > 0 {
				b.Adapter = r.Adapters[0]
			}
			bugs = append(bugs, b)
		}
		b := &bugs[k]
		b.Programs = append(b.Programs, r.Index)
		b.Seeds = append(b.Seeds, r.Seed)
		if b.Case == "" && r.Case != "" {
			b.Case, b.CaseError, b.CaseIndex, b.Stmts, b.ShrunkStmts = r.Case, "", r.Index, r.Stmts, r.ShrunkStmts
		}
		if b.Saved == nil && r.Case == b.Case && r.Saved != nil {
			b.Saved = r.Saved
		}
	}
	return bugs
}

// BugCount counts the bugs in state ("new", "known", "unconfirmed") and
// the programs that met them.
func BugCount(bugs []Bug, state string) (n, programs int) {
	for _, b := range bugs {
		if b.State == state {
			n++
			programs += len(b.Programs)
		}
	}
	return n, programs
}

// CountPhrase says how many bugs met how many programs, in words: "1 new
// bug in 1 program", "3 new bugs in 13 programs".
func CountPhrase(n, programs int, state string) string {
	return fmt.Sprintf("%d %s %s in %d %s", n, state, plural(n, "bug"), programs, plural(programs, "program"))
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
