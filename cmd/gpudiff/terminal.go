package main

import (
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// terminal reports whether w is a terminal.
func terminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// colorOn reports whether w takes ANSI colours: a terminal, and the user
// has not set NO_COLOR (https://no-color.org).
func colorOn(w io.Writer) bool {
	if v := os.Getenv("NO_COLOR"); v != "" && v != "0" {
		return false
	}
	return terminal(w)
}

// progressBar is a progress bar of total steps (-1: open-ended) on a
// terminal w (nil otherwise), with opts.
func progressBar(w io.Writer, total int, opts ...progressbar.Option) *progressbar.ProgressBar {
	if !terminal(w) {
		return nil
	}
	return progressbar.NewOptions(total, append([]progressbar.Option{progressbar.OptionSetWriter(w), progressbar.OptionShowCount(),
		progressbar.OptionClearOnFinish(), progressbar.OptionThrottle(100 * time.Millisecond)}, opts...)...)
}
