package report

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/gpudiff/gpudiff/check"
)

// Rendering a case's run of any kind (check.Outcome): a compute entry
// point's dispatch renders as WriteDispatchTable, WriteDispatchJSON,
// EntryPictures and EntryViews do; a function kernel or a fragment entry
// point (one invocation per pixel, its position the argument) as
// WriteExecTable, WriteExecJSON, ResultPictures and ResultViews do.

// WriteCaseTable writes exec's table for o; a fragment entry point's is
// followed by the line that maps invocations to pixels.
func WriteCaseTable(w io.Writer, o *check.Outcome, opts ExecOptions) {
	c := o.Case
	if o.Entry != nil {
		WriteDispatchTable(w, c.Entry(), o.Entry, opts)
		return
	}
	WriteExecTable(w, c.Func, c.Args, o.Result, opts)
	if c.Kind == check.KindFragment {
		fmt.Fprintf(w, "fragment entry point %s over a %dx%d target: invocation i is pixel (i %% %d, i / %d)\n", c.Func.Name, c.Size[0], c.Size[1], c.Size[0], c.Size[0])
	}
}

// WriteCaseJSON writes exec's JSON object for o; replay, when non-nil, is
// repro's judgement of a function kernel's run (WriteExecJSON). Errors are
// w's.
func WriteCaseJSON(w io.Writer, o *check.Outcome, replay *check.ReplayOutcome) error {
	if o.Entry != nil {
		return WriteDispatchJSON(w, o.Case.Entry(), o.Entry)
	}
	return WriteExecJSON(w, o.Case.Func, o.Case.Args, o.Result, replay)
}

// WritePictures writes each picture to dir/File atomically
// (check.WriteFileAtomic), stopping at the first failure; an empty dir
// writes none.
func WritePictures(dir string, pics []NamedPicture) error {
	for _, p := range pics {
		if dir == "" {
			break
		}
		if err := check.WriteFileAtomic(filepath.Join(dir, p.File), p.PNG); err != nil {
			return err
		}
	}
	return nil
}

// WriteCasePictures writes o's pictures (CasePictures) to dir as
// WritePictures does; an empty dir draws none.
func WriteCasePictures(dir string, o *check.Outcome) error {
	if dir == "" {
		return nil
	}
	return WritePictures(dir, CasePictures(o))
}

// CasePictures are o's pictures: the reference's, then each judged run's.
func CasePictures(o *check.Outcome) []NamedPicture {
	if o.Entry != nil {
		return EntryPictures(o.Entry, o.Case.Func.Name)
	}
	return ResultPictures(o.Result)
}

// CaseViews are o's runs as the viewer shows them.
func CaseViews(o *check.Outcome) []View {
	if o.Entry != nil {
		return EntryViews(o.Case.Entry(), o.Entry)
	}
	return ResultViews(o.Case.Func, o.Case.Args, o.Result)
}
