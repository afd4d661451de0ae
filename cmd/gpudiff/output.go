package main

import (
	"bytes"
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

// writeFile renders into path atomically: render writes the whole file to
// a buffer, which check.WriteFileAtomic then writes. A render or write
// failure leaves no partial file behind.
func writeFile(path string, render func(io.Writer) error) error {
	var b bytes.Buffer
	if err := render(&b); err != nil {
		return err
	}
	return check.WriteFileAtomic(path, b.Bytes())
}
