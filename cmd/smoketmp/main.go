package main

import (
	"fmt"
	"os"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/ir"
)

func main() {
	for _, f := range os.Args[1:] {
		src, _ := os.ReadFile(f)
		m, err := wgsl.Parse(f, src)
		if err != nil {
			fmt.Println("ERR", err)
			continue
		}
		fmt.Println("==", f)
		for _, o := range m.Opaque {
			fmt.Printf("  opaque %-12s %-20s %s %q\n", o.Kind, o.Name, o.ReasonPos, o.Reason)
		}
		for _, fn := range m.Funcs {
			fmt.Printf("  func %s\n", fn.Name)
		}
		if len(os.Getenv("PRINT")) > 0 {
			fmt.Println(ir.Print(m))
		}
	}
}
