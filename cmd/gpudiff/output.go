package main

import (
	"io"
	"os"

	"github.com/gpudiff/gpudiff/check"
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
