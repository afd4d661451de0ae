// rule: && evaluates its right operand only when the left is true
// spec: WGSL #logical-expr (Logical Expressions), "Short-circuiting "and". Yields true if both e1 and e2 are true; evaluates e2 only if e1 is true."
//
// Derivation (outputs: the result, then the private global calls, which
// counts how often the right operand ran): (false, b) -> false with calls
// 0 whatever b is; (true, false) -> false, calls 1; (true, true) -> true,
// calls 1.

var<private> calls: u32;

fn probe(v: bool) -> bool {
    calls += 1u;
    return v;
}

fn short_circuit_and(a: bool, b: bool) -> bool {
    return a && probe(b);
}
