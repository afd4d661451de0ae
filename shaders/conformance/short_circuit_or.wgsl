// rule: || evaluates its right operand only when the left is false
// spec: WGSL #logical-expr (Logical Expressions), "Short-circuiting "or". Yields true if either e1 or e2 are true; evaluates e2 only if e1 is false."
//
// Derivation (outputs: the result, then the private global calls, which
// counts how often the right operand ran): (false, false) -> false, calls 1;
// (false, true) -> true, calls 1; (true, b) -> true with calls 0 whatever b is.

var<private> calls: u32;

fn probe(v: bool) -> bool {
    calls += 1u;
    return v;
}

fn short_circuit_or(a: bool, b: bool) -> bool {
    return a || probe(b);
}
