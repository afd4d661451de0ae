package gen

// The unroll cap. flatten refuses a kernel whose unroll count — the
// loop-body copies unrolling and inlining create — is above
// flatten.Options.MaxUnroll (flatten/check.go, "Unroll count"): a loop
// whose bound is E (ir.LoopBound.MaxEntries) inside loops of bounds
// b1 … bd is copied b1 × … × bd × E times, and a callee's count is
// added once per call site, multiplied by the bounds of the loops around
// the call. A program over the cap is a refusal, not a flatten bug, so
// the generator keeps every in-subset program within Config.MaxUnroll by
// construction, counting exactly as flatten counts:
//
//   - fnGen.mult is the product of the bounds around the current point
//     (it already drives the cost estimate);
//   - a loop adds mult × E when it is placed (its body then runs at
//     mult × E), a call of helper h adds mult × h.copies;
//   - helpers are generated unchecked (a helper over the cap is fine as
//     long as the kernel never calls it: it is then dropped); in the
//     kernel, whose count is the one flatten checks, each addition is
//     checked before it is made, and made before what
//     nests in it is generated (a loop's body, a call's arguments): a
//     loop's trip count is clamped to the room left, a loop with no room
//     at all becomes a declaration, and a call of a helper whose copies
//     do not fit is dropped (the expression or statement falls back as
//     when no helper fits).
//
// The count only grows, so checking every addition bounds the total;
// TestGeneratedProgramsStayInsideFlattenCaps asserts that flatten agrees.
// Every check comes after the random decisions it judges (the trip count
// is clamped after it is drawn, a callee is dropped after it is picked
// from the same candidates as before), and an addition can fail only when
// the unchecked program would have ended over the cap: so every program
// within the cap is generated exactly as it was before the cap was
// enforced, and only those that were over it change.

// DefaultMaxUnroll is the unroll cap used when Config.MaxUnroll is 0. It
// equals flatten.DefaultMaxUnroll (gen cannot import flatten, whose tests
// import gen; a test pins the two equal).
const DefaultMaxUnroll = 4096

// copiesRoom returns how many more loop-body entries fit the unroll cap
// at the current multiplier: unlimited (maxCopies) outside the kernel.
func (c *fnGen) copiesRoom() int {
	if !c.kernel {
		return maxCopies
	}
	return (c.g.maxUnroll - c.copies) / c.mult
}

// maxCopies saturates unroll counts (a chain of helpers each calling the
// next in nested loops multiplies their counts).
const maxCopies = 1 << 40

// copiesFit reports whether n more copies per entry of the current
// multiplier fit the unroll cap.
func (c *fnGen) copiesFit(n int) bool {
	return n <= c.copiesRoom()
}

// addCopies accounts for n copies per entry of the current multiplier.
func (c *fnGen) addCopies(n int) {
	c.copies = min(maxCopies, c.copies+min(maxCopies, c.mult*n))
}
