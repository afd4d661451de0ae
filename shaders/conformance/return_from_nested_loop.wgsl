// rule: return inside nested loops ends the whole function at once
// spec: WGSL #return-statement (Return Statement), "A return statement ends execution of the current function."
//
// Derivation (outputs: the result, then the private global visited, the
// cells the inner loop reached): cell (i, j) is number 4i + j, visited in
// row order; the return at the wanted cell stops both loops, so visited =
// cell + 1 and the result is 16i + j. cell 0 -> 0, visited 1;
// 5 = (1, 1) -> 17, 6; 15 = (3, 3) -> 51, 16; 3 = (0, 3) -> 3, 4;
// 12 = (3, 0) -> 48, 13; 16 is no cell: all 16 visited, the final
// return gives 0xFFFFFFFF.

var<private> visited: u32;

fn return_from_nested_loop(cell: u32) -> u32 {
    for (var i = 0u; i < 4u; i++) {
        for (var j = 0u; j < 4u; j++) {
            visited += 1u;
            if i * 4u + j == cell {
                return i * 16u + j;
            }
        }
    }
    return 0xFFFFFFFFu;
}
