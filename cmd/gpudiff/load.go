package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/ir"
)

// defaultInvocations is exec's invocation count without --inputs.
const defaultInvocations = 64

// loadModule reads and parses a WGSL file (or the WGSL part of a case
// file). Errors are positioned (file:line:col: …) and mean exit 2.
func (g *globalFlags) loadModule(path string) (*ir.Module, []byte, error) {
	src, err := g.readSource(path)
	if err != nil {
		return nil, nil, err
	}
	m, err := wgsl.ParseWith(path, src, wgsl.ParseOptions{Overrides: g.overrides.Overrides()})
	if err != nil {
		return nil, nil, inputErr(err)
	}
	return m, src, nil
}

// loadCase reads a case file when src is one (nil otherwise).
func loadCase(path string, src []byte) (*check.Case, *check.CaseRecord, error) {
	if !check.IsCase(src) {
		return nil, nil, nil
	}
	c, rec, err := check.ParseCase(path, src)
	if err != nil {
		return nil, nil, inputErr(err)
	}
	return c, rec, nil
}

// pickKernel resolves --kernel (or the default kernel) to a function of
// the subset.
func pickKernel(m *ir.Module, name string) (*ir.Func, error) {
	f, err := wgsl.Kernel(m, name)
	if err != nil {
		return nil, inputErr(err)
	}
	return f, nil
}

// readInputs parses an --inputs file: a JSON object mapping each kernel
// parameter to an array with one value per invocation. It returns
// args[invocation][param].
func (g *globalFlags) readInputs(path string, f *ir.Func) ([][]ir.Value, error) {
	data, err := g.readSource(path)
	if err != nil {
		return nil, err
	}
	return parseInputs(path, data, f)
}

// besideInputs returns NAME.inputs.json beside the WGSL file NAME.wgsl when
// it exists and kernel (--kernel, "" for the default) is the one it is
// written for: the default kernel or the function NAME. It is "" otherwise.
// drivers reads the same file for the same kernel (drivers.LoadFile).
func besideInputs(path, kernel string) string {
	stem := strings.TrimSuffix(path, ".wgsl")
	if stem == path || (kernel != "" && kernel != filepath.Base(stem)) {
		return ""
	}
	in := stem + ".inputs.json"
	if st, err := os.Stat(in); err != nil || st.IsDir() {
		return ""
	}
	return in
}

func parseInputs(path string, data []byte, f *ir.Func) ([][]ir.Value, error) {
	var probe any
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, usagef("%s: %s", jsonPos(path, data, err), jsonMsg(err))
	}
	args, err := check.ParseInputs(path, data, f)
	if err != nil {
		return nil, inputErr(err)
	}
	return args, nil
}

// jsonPos turns a JSON syntax error's byte offset into file:line:col.
func jsonPos(path string, data []byte, err error) string {
	var off int64 = -1
	switch e := err.(type) {
	case *json.SyntaxError:
		off = e.Offset
	case *json.UnmarshalTypeError:
		off = e.Offset
	}
	if off < 0 {
		return path
	}
	// Offset counts the bytes read up to and including the offending one.
	line, col := 1, 1
	for i := int64(0); i < off-1 && i < int64(len(data)); i++ {
		if data[i] == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return fmt.Sprintf("%s:%d:%d", path, line, col)
}

func jsonMsg(err error) string {
	if _, ok := err.(*json.UnmarshalTypeError); ok {
		return "want a JSON object mapping parameter names to arrays"
	}
	return err.Error()
}

// seededInputs returns exec's default arguments: deterministic in seed,
// starting with edge values (0, ±1, INT_MIN, INT_MAX, integer-valued
// floats).
func seededInputs(seed uint64, f *ir.Func, n int) [][]ir.Value {
	return gen.Inputs(seed, f.Params, n)
}

// newCase assembles the case exec runs.
func newCase(m *ir.Module, f *ir.Func, args [][]ir.Value) *check.Case {
	return &check.Case{Module: m, Kernel: f.Name, Args: args}
}
