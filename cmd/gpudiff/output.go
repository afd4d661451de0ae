package main

import (
	"io"

	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/report"
)

// writeOutput writes data to path atomically (testcase.WriteFileAtomic), or to
// w when path is empty. A failure leaves no partial file behind.
func writeOutput(w io.Writer, path string, data []byte) error {
	if path == "" {
		_, err := w.Write(data)
		return err
	}
	if err := testcase.WriteFileAtomic(path, data); err != nil {
		return usagef("gpudiff: %v", err)
	}
	return nil
}

// writeOutputs writes outs (report.WriteOutputs); an error names command
// cmd and the output's flag.
func writeOutputs(cmd string, outs []report.Output) error {
	if err := report.WriteOutputs(outs...); err != nil {
		return usagef("gpudiff %s: %v", cmd, err)
	}
	return nil
}
