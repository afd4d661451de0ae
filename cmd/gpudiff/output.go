package main

import (
	"bytes"
	"io"
	"os"
	"time"

	"github.com/gpudiff/gpudiff/check"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// writeOutput writes data to path atomically (check.WriteFileAtomic), or to
// w when path is empty. A failure leaves no partial file behind.
func writeOutput(w io.Writer, path string, data []byte) error {
	if path == "" {
		_, err := w.Write(data)
		return err
	}
	if err := check.WriteFileAtomic(path, data); err != nil {
		return usagef("gpudiff: %v", err)
	}
	return nil
}

// colorOut reports whether w takes ANSI colours: a terminal, and the user
// has not set NO_COLOR (https://no-color.org).
func colorOut(w io.Writer) bool {
	if v := os.Getenv("NO_COLOR"); v != "" && v != "0" {
		return false
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// output is one file a command writes: its flag, its path ("" none) and
// what renders it.
type output struct {
	flag, path string
	render     func(io.Writer) error
}

// writeOutputs renders each output given into its file atomically
// (check.WriteFileAtomic: a render or write failure leaves no partial file
// behind); an error names command cmd and the output's flag.
func writeOutputs(cmd string, outs ...output) error {
	for _, o := range outs {
		if o.path == "" {
			continue
		}
		var b bytes.Buffer
		err := o.render(&b)
		if err == nil {
			err = check.WriteFileAtomic(o.path, b.Bytes())
		}
		if err != nil {
			return usagef("gpudiff %s: --%s: %v", cmd, o.flag, err)
		}
	}
	return nil
}

// progressBar is a progress bar of total steps (-1: open-ended) on a
// terminal stderr (nil otherwise), with opts.
func progressBar(stderr io.Writer, total int, opts ...progressbar.Option) *progressbar.ProgressBar {
	f, ok := stderr.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	return progressbar.NewOptions(total, append([]progressbar.Option{progressbar.OptionSetWriter(stderr), progressbar.OptionShowCount(),
		progressbar.OptionClearOnFinish(), progressbar.OptionThrottle(100 * time.Millisecond)}, opts...)...)
}
