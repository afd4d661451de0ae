module github.com/gpudiff/gpudiff

go 1.26

require (
	github.com/cogentcore/webgpu v0.23.0 // indirect
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/jedib0t/go-pretty/v6 v6.6.7 // indirect
	github.com/leanovate/gopter v0.2.11 // indirect
	github.com/rogpeppe/go-internal v1.14.1 // indirect
	github.com/spf13/cobra v1.9.1 // indirect
	github.com/spf13/pflag v1.0.6 // indirect
	github.com/stretchr/testify v1.12.1 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
)
