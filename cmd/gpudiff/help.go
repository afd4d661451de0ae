package main

import (
	"embed"
	"strings"
)

// helpFiles holds the subcommands' help: help/NAME.txt is the Long text of
// subcommand NAME (help/gpudiff.txt: the root's), help/NAME.example.txt its
// Example, each as its --help prints it, plus one final newline.
//
//go:embed help/*.txt
var helpFiles embed.FS

// helpText is the text of help/NAME.txt without its final newline; a
// missing file is a bug in this build (the help files are embedded).
func helpText(name string) string {
	b, err := helpFiles.ReadFile("help/" + name + ".txt")
	if err != nil {
		panic("gpudiff: no help text " + name)
	}
	return strings.TrimSuffix(string(b), "\n")
}
