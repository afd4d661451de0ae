package main

import (
	"io"
	"os"
	"time"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/report"
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

// writeOutputs writes outs (report.WriteOutputs); an error names command
// cmd and the output's flag.
func writeOutputs(cmd string, outs []report.Output) error {
	if err := report.WriteOutputs(outs...); err != nil {
		return usagef("gpudiff %s: %v", cmd, err)
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
