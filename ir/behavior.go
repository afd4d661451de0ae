package ir

// Statement behavior analysis (WGSL #behaviors) over a function's IR,
// which has exactly the desugarings the rules assume (for and while as
// loop, if with an else, loop with a continuing block). The front end
// reports its errors (compiler/wgsl); the uniformity analysis
// (uniformity.go) reads it.

// Behavior is a set of statement behaviors (WGSL #behaviors).
type Behavior uint8

// The behaviors.
const (
	BehNext Behavior = 1 << iota
	BehBreak
	BehContinue
	BehReturn
)

// BehaviorSeq applies the sequence rule: s1 s2 has (B1 \ {Next}) ∪ B2 when
// Next is in B1, else B1.
func BehaviorSeq(ss []Stmt, beh func(Stmt) Behavior) Behavior {
	acc := BehNext
	for _, s := range ss {
		b := beh(s)
		if acc&BehNext != 0 {
			acc = acc&^BehNext | b
		}
	}
	return acc
}

// BehaviorOf computes the behavior of one statement given a block
// analyzer; ok is false for a loop with an empty behavior.
func BehaviorOf(s Stmt, block func(*Block) Behavior) (Behavior, bool) {
	switch x := s.(type) {
	case *Block:
		return block(x), true
	case *Return:
		return BehReturn, true
	case *Break:
		return BehBreak, true
	case *Continue:
		return BehContinue, true
	case *If:
		return block(x.Then) | block(x.Else), true
	case *Loop:
		b1 := block(x.Body)
		b2 := block(x.Continuing)
		if x.BreakIf != nil && b2&BehNext != 0 {
			b2 = b2&^BehNext | BehBreak | BehNext
		}
		if b1 == BehReturn {
			return BehReturn, true
		}
		u := b1 | b2
		if u&BehBreak == 0 {
			r := u &^ (BehContinue | BehNext)
			return r, r != 0
		}
		return (u | BehNext) &^ (BehBreak | BehContinue), true
	case *Switch:
		var u Behavior
		for _, cs := range x.Cases {
			u |= block(cs.Body)
		}
		if u&BehBreak != 0 {
			u = (u | BehNext) &^ BehBreak
		}
		return u, true
	}
	return BehNext, true
}
