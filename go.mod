module github.com/gpudiff/gpudiff

go 1.26

require (
	github.com/cogentcore/webgpu v0.23.0
	github.com/go-gl/glfw/v3.3/glfw v0.0.0-20240506104042-037f3cc74f2a
	github.com/jedib0t/go-pretty/v6 v6.6.7
	github.com/jstemmer/go-junit-report/v2 v2.1.0
	github.com/leanovate/gopter v0.2.11
	github.com/rogpeppe/go-internal v1.16.0
	github.com/schollz/progressbar/v3 v3.18.0
	github.com/spf13/cobra v1.9.1
	github.com/spf13/pflag v1.0.6
	github.com/stretchr/testify v1.12.1
	go.yaml.in/yaml/v3 v3.0.5
	golang.org/x/image v0.24.0
	golang.org/x/term v0.30.0
	golang.org/x/tools v0.26.0
	gonum.org/v1/plot v0.12.0
)

require (
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/mattn/go-runewidth v0.0.16 // indirect
	github.com/mitchellh/colorstring v0.0.0-20190213212951-d06e56a500db // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
	golang.org/x/sys v0.31.0 // indirect
	golang.org/x/text v0.22.0 // indirect
)
