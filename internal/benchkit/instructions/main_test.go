package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A cachegrind output file as valgrind 3.19 writes it, with one function
// spread over two source files (inlined code) and a line counted twice.
const sample = `desc: I1 cache:         32768 B, 64 B, 8-way associative
desc: LL cache:         524288 B, 64 B, 8-way associative
cmd: interp.test -test.bench x
events: Ir D1mr DLmr 
fl=/src/code.go
fn=interp.code.execAt
149 100 1 0
151 300 0 0
fl=/src/ops_f32.go
fn=interp.code.execAt
176 40 2 1
fl=/src/code.go
fn=interp.code.execAt
151 20 0 0
fl=/src/kernel.go
fn=github.com/gpudiff/gpudiff/internal/benchkit.Native
30 70 0 0
summary: 530 3 1
`

// TestParseProfile: the totals, the instructions per line and per
// function, and the named events, as added up by hand from sample.
func TestParseProfile(t *testing.T) {
	p, err := parseProfile(strings.NewReader(sample))
	require.NoError(t, err)
	assert.Equal(t, []string{"Ir", "D1mr", "DLmr"}, p.events)
	assert.Equal(t, []float64{530, 3, 1}, p.total)
	assert.Equal(t, 3.0, p.event("D1mr"))
	assert.Equal(t, 0.0, p.event("DLmw"), "an event the run did not record")
	assert.Equal(t, 100.0, p.byLine[fileLine{"/src/code.go", "interp.code.execAt", 149}])
	assert.Equal(t, 320.0, p.byLine[fileLine{"/src/code.go", "interp.code.execAt", 151}], "a line counted twice")
	assert.Equal(t, 40.0, p.byLine[fileLine{"/src/ops_f32.go", "interp.code.execAt", 176}])
	assert.Len(t, p.byLine, 4)
	assert.Equal(t, 70.0, p.sumFn(func(fn string) bool { return strings.HasSuffix(fn, "benchkit.Native") }))
	assert.Equal(t, 460.0, p.sumFn(func(fn string) bool { return fn == "interp.code.execAt" }))

	_, err = parseProfile(strings.NewReader("fl=x\nfn=y\n1 2\n"))
	assert.ErrorContains(t, err, "no events or summary line")
}

// TestMetrics reads go test's benchmark line and flatten's log line.
func TestMetrics(t *testing.T) {
	out := []byte("BenchmarkInterpRowD \t 300\t 1 ns/op\t 7.3 cpu-ns/IR-op\t 132163 IR-ops/run\n" +
		"    bench_test.go:99: input: 10001 statements, 61234 nodes\n")
	ops, err := metric(out, "IR-ops/run")
	require.NoError(t, err)
	assert.Equal(t, 132163.0, ops)
	n, err := statements(out)
	require.NoError(t, err)
	assert.Equal(t, 10001.0, n)
	_, err = metric(out, "allocs/op")
	assert.Error(t, err)
}
