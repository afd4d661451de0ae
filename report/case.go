package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/ir"
)

// Rendering a case's run of any kind (check.Result): a compute entry
// point's dispatch renders as WriteDispatchTable, WriteDispatchJSON,
// EntryPictures and EntryViews do; a function kernel or a fragment entry
// point (one invocation per pixel, its position the argument) as
// WriteExecTable, WriteExecJSON, ResultPictures and ResultViews do.

// WriteCaseTable writes exec's table for o; a fragment entry point's is
// followed by the line that maps invocations to pixels.
func WriteCaseTable(w io.Writer, o *check.Result, opts ExecOptions) {
	c := o.Case
	if o.IsCompute() {
		WriteDispatchTable(w, c, o, opts)
		return
	}
	if c.Kind == testcase.KindDraw {
		f, pixels := drawPixels(c)
		WriteExecTable(w, f, pixels, o, opts)
		fmt.Fprintf(w, "draw of vertex entry point %s and fragment entry point %s over a %dx%d target: invocation i is pixel (i %% %d, i / %d), one output per colour attachment\n",
			c.Vertex.Name, c.Func.Name, c.Size[0], c.Size[1], c.Size[0], c.Size[0])
		return
	}
	WriteExecTable(w, c.Func, c.Args, o, opts)
	if c.Kind == testcase.KindFragment {
		fmt.Fprintf(w, "fragment entry point %s over a %dx%d target: invocation i is pixel (i %% %d, i / %d)\n", c.Func.Name, c.Size[0], c.Size[1], c.Size[0], c.Size[0])
	}
}

// WriteCaseJSON writes exec's JSON object for o; replay, when non-nil, is
// repro's judgement of a function kernel's run (WriteExecJSON). Errors are
// w's.
func WriteCaseJSON(w io.Writer, o *check.Result, replay *check.ReplayOutcome) error {
	if o.IsCompute() {
		return WriteDispatchJSON(w, o.Case, o)
	}
	if c := o.Case; c.Kind == testcase.KindDraw {
		f, pixels := drawPixels(c)
		return writeExecJSON(w, f, pixels, o, replay, func(j *ir.JSONWriter) {
			j.Key("vertex")
			j.String(c.Vertex.Name)
			j.Key("size")
			j.Open('[')
			j.Elem()
			j.Int(int64(c.Size[0]))
			j.Elem()
			j.Int(int64(c.Size[1]))
			j.Close(']')
		})
	}
	return WriteExecJSON(w, o.Case.Func, o.Case.Args, o, replay)
}

// drawPixels are a draw's invocations as exec shows them, one per pixel in
// row order: the fragment entry point f named with one "argument", the
// pixel (x, y) as a vec2<u32>.
func drawPixels(c *testcase.Case) (*ir.Func, [][]ir.Value) {
	f := &ir.Func{Name: c.Func.Name, Params: []*ir.Param{{Name: "pixel", T: ir.Vec(2, ir.U32)}}}
	w, h := c.Size[0], c.Size[1]
	px := make([][]ir.Value, 0, int(w*h))
	for y := uint32(0); y < h; y++ {
		for x := uint32(0); x < w; x++ {
			px = append(px, []ir.Value{ir.CompositeVal(ir.Vec(2, ir.U32), ir.U32Val(x), ir.U32Val(y))})
		}
	}
	return f, px
}

// WriteReplay writes repro's output for o, the replay of a case file
// judged out (check.Result.Replay): exec's JSON object with out as its
// "repro" member (asJSON), else exec's table and out's one-line message.
// Errors are w's.
func WriteReplay(w io.Writer, o *check.Result, out check.ReplayOutcome, asJSON bool, opts ExecOptions) error {
	if asJSON {
		return WriteCaseJSON(w, o, &out)
	}
	WriteCaseTable(w, o, opts)
	_, err := fmt.Fprintln(w, out.Message)
	return err
}

// SaveRun writes what exec keeps of o besides its output: the case file
// (saveCase, testcase.WriteCase; "" none) with toolVersion in its record, and
// the pictures (CasePictures) into directory png ("" none). Errors name
// the flag: "--save-case: …", "--png: …".
func SaveRun(o *check.Result, saveCase, png, toolVersion string) error {
	if saveCase != "" {
		if err := testcase.WriteCase(saveCase, o.Case.Module, o.Record(toolVersion)); err != nil {
			return fmt.Errorf("--save-case: %w", err)
		}
	}
	if png == "" {
		return nil // pictures cost memory in proportion to the outputs: only made when asked for
	}
	if err := WritePictures(png, CasePictures(o)); err != nil {
		return fmt.Errorf("--png: %w", err)
	}
	return nil
}

// WritePictures writes each picture to dir/File atomically
// (testcase.WriteFileAtomic), stopping at the first failure; an empty dir
// writes none.
func WritePictures(dir string, pics []NamedPicture) error {
	for _, p := range pics {
		if dir == "" {
			break
		}
		if err := testcase.WriteFileAtomic(filepath.Join(dir, p.File), p.PNG); err != nil {
			return err
		}
	}
	return nil
}

// CasePictures are o's pictures: the reference's, then each judged run's.
func CasePictures(o *check.Result) []NamedPicture {
	if o.IsCompute() {
		return append(EntryPictures(o, o.Case.Func.Name), EntryTexturePictures(o, o.Case.Module, o.Case.Func.Name)...)
	}
	if o.Case.Kind == testcase.KindFragment {
		return append(ResultPictures(o), FragmentPictures(o.Case, o)...)
	}
	if o.Case.Kind == testcase.KindDraw {
		return DrawPictures(o)
	}
	return ResultPictures(o)
}

// CaseViews are o's runs as the viewer shows them.
func CaseViews(o *check.Result) []View {
	if o.IsCompute() {
		return EntryViews(o.Case, o)
	}
	if o.Case.Kind == testcase.KindDraw {
		f, pixels := drawPixels(o.Case) // a pixel per invocation, as exec's table
		return ResultViews(f, pixels, o)
	}
	views := ResultViews(o.Case.Func, o.Case.Args, o)
	if o.Case.Kind == testcase.KindFragment {
		pics := fragmentPictures(o.Case, o)
		for i := range len(views) {
			views = append(views, fragmentViews(pics, views[i], i-1)...)
		}
	}
	return views
}

// EntryRun is one entry point's turn when a module's entry points run in
// turn (testcase.EachEntry): its outcome, or Err, the positioned reason it
// was refused (Outcome nil), and its exit code (README "Exit codes"; the
// command decides it).
type EntryRun struct {
	Name    string
	Outcome *check.Result
	Err     string
	Exit    int
}

// verdict is the run's verdict word, "refused" for an entry point that
// did not run, and flatten's refusal as "flatten-rejected".
func (r EntryRun) verdict() string {
	if r.Outcome == nil {
		return "refused"
	}
	if r.Outcome.FlattenErr != nil {
		return "flatten-rejected"
	}
	return string(r.Outcome.Verdict)
}

// WriteEntries writes exec's output for several entry points run in turn
// whose worst exit code is exit: with asJSON one JSON array
// (WriteEntriesJSON); else per entry point a header line "== entry point
// NAME (i of n) ==" and its table (WriteCaseTable) or its refusal, then
// one line per entry point with its verdict and exit code, and "verdict:
// V (N entry points, exit C)", V the verdict of the first entry point
// whose exit code is the worst. Errors are w's.
func WriteEntries(w io.Writer, runs []EntryRun, exit int, asJSON bool, opts ExecOptions) error {
	if asJSON {
		return WriteEntriesJSON(w, runs)
	}
	for i, r := range runs {
		fmt.Fprintf(w, "== entry point %s (%d of %d) ==\n", r.Name, i+1, len(runs))
		if r.Outcome == nil {
			fmt.Fprintf(w, "refused: %s\n", r.Err)
			continue
		}
		WriteCaseTable(w, r.Outcome, opts)
	}
	fmt.Fprintf(w, "== %d entry points, run in turn ==\n", len(runs))
	worst := ""
	for _, r := range runs {
		fmt.Fprintf(w, "  %s: %s (exit %d)\n", r.Name, r.verdict(), r.Exit)
		if worst == "" && r.Exit == exit {
			worst = r.verdict()
		}
	}
	_, err := fmt.Fprintf(w, "verdict: %s (%d entry points, exit %d)\n", worst, len(runs), exit)
	return err
}

// WriteEntriesJSON writes exec --json for several entry points: a JSON
// array with one element per entry point in module order: exec's object
// for its run (WriteCaseJSON) with "exit" added, or {"entry": NAME,
// "verdict": "refused", "error": MESSAGE, "exit": CODE} for one refused.
// Errors are w's.
func WriteEntriesJSON(w io.Writer, runs []EntryRun) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.WriteString("[\n")
	for i, r := range runs {
		if i > 0 {
			bw.WriteString(",\n")
		}
		switch {
		case r.Outcome == nil:
			js, _ := json.MarshalIndent(struct {
				Entry   string `json:"entry"`
				Verdict string `json:"verdict"`
				Error   string `json:"error"`
				Exit    int    `json:"exit"`
			}{r.Name, "refused", r.Err, r.Exit}, "", "  ")
			bw.Write(js)
		case r.Outcome.IsCompute():
			// Streamed: the entry point's object with "exit" last.
			writeDispatchJSON(ir.NewJSONWriter(bw, true), r.Outcome.Case, r.Outcome, &r.Exit)
		default:
			var one bytes.Buffer
			if err := WriteCaseJSON(&one, r.Outcome, nil); err != nil {
				return err
			}
			obj := bytes.TrimRight(one.Bytes(), "\n")
			obj = bytes.TrimRight(bytes.TrimSuffix(obj, []byte("}")), " \n")
			obj = append(obj, fmt.Sprintf(",\n  \"exit\": %d\n}", r.Exit)...)
			bw.Write(obj)
		}
	}
	bw.WriteString("\n]\n")
	return bw.Flush()
}
