package interp

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/ir"
)

// endsAfter is a context that ends at its n-th look (Err call): a
// deterministic stand-in for a SIGTERM arriving during a long run.
type endsAfter struct {
	context.Context
	n, looks int
	done     chan struct{}
}

func newEndsAfter(n int) *endsAfter {
	return &endsAfter{Context: context.Background(), n: n, done: make(chan struct{})}
}

func (c *endsAfter) Done() <-chan struct{} { return c.done }
func (c *endsAfter) Err() error {
	c.looks++
	if c.looks >= c.n {
		return context.Canceled
	}
	return nil
}

// TestRunStopsWhenItsContextEnds: a run whose Options.Context ends stops
// at the next look, inside a long loop as between invocations, with an
// error wrapping the context's (no results); without a context, or with
// one that stays open, the same runs finish with the same results.
func TestRunStopsWhenItsContextEnds(t *testing.T) {
	// fn k(n: i32) -> i32 { var i = 0; loop { if (i == n) { break; } i += 1; } return i; }
	i := func() *ir.Ident { return local("i", tI32) }
	l := loop([]ir.Stmt{if_(bin(ir.OpEq, i(), param("n", tI32)), brk()), opAssign(ir.OpAdd, i(), iL(1))}, nil, nil)
	m := module(nil, fn("k", []P{{"n", tI32}}, tI32, varDecl("i", tI32, iL(0)), l, ret(i())))
	p, err := Compile(m, "k")
	require.NoError(t, err)

	// 1,000,000 iterations take about 2,000,000 steps: the context is
	// looked at before the invocation, then every cancelEvery (16,384)
	// steps, so ending at its 3rd look stops the invocation some 30,000
	// steps in (without looks inside, the run would finish: 2 looks).
	ctx := newEndsAfter(3)
	invs, err := p.Run([][]ir.Value{{iv(1_000_000)}}, Options{Context: ctx, MaxSteps: 1 << 40})
	require.Error(t, err)
	assert.Nil(t, invs)
	assert.True(t, errors.Is(err, context.Canceled), "%v", err)
	assert.Equal(t, "interp: reference run stopped: context canceled", err.Error())
	// It stops at the look that sees the end (then Run looks twice more
	// to build its error: Err and context.Cause).
	assert.LessOrEqual(t, ctx.looks, 3+2)

	// Between invocations: many short ones (no checkpoint inside them),
	// the context ending at its 5th look (one before each invocation:
	// the 5th never runs).
	short := make([][]ir.Value, 100)
	for j := range short {
		short[j] = []ir.Value{iv(2)}
	}
	ctx = newEndsAfter(5)
	_, err = p.Run(short, Options{Context: ctx})
	require.ErrorIs(t, err, context.Canceled)
	assert.LessOrEqual(t, ctx.looks, 5+2)

	// Open contexts change nothing.
	long := [][]ir.Value{{iv(1_000_000)}, {iv(3)}}
	for _, o := range []Options{{}, {Context: context.Background()}, {Context: newEndsAfter(1 << 30)}} {
		invs, err = p.Run(long, o)
		require.NoError(t, err)
		assert.Equal(t, int32(1_000_000), invs[0].Outputs[0].Value.I32())
		assert.Equal(t, int32(3), invs[1].Outputs[0].Value.I32())
	}

	// The step limit is still the limit given, not a checkpoint.
	invs, err = p.Run([][]ir.Value{{iv(-1)}}, Options{Context: newEndsAfter(1 << 30), MaxSteps: 100_000})
	require.NoError(t, err)
	require.Error(t, invs[0].Err)
	assert.Contains(t, invs[0].Err.Error(), "step limit of 100000 exceeded")
}
