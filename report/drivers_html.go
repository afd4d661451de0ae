package report

import (
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"slices"
	"strings"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/drivers"
	"github.com/gpudiff/gpudiff/oracle"
)

// WriteDriversHTML writes the report as one self-contained HTML page (inline CSS,
// no scripts, no external resources): the adapters, the matrix with one
// colored cell per case × adapter linking to that case's details, the
// per-rule summary, every divergence with its attribution, and per case
// its WGSL source, rule and spec citation, and a table of every invocation
// — arguments, reference, and each run's outputs, differing invocations
// highlighted — with the attribution of each divergent run above it,
// next to it the picture of that run (RunPicture, EntryPicture) and, once
// per case, the reference's, embedded as data: URIs; runs that agree are
// not drawn, nor runs without outputs (a compile error, a crash).
func WriteDriversHTML(w io.Writer, rep *drivers.Report) error {
	return htmlTmpl.Execute(w, htmlView(rep))
}

type htmlCase struct {
	*drivers.CaseResult
	ID          string
	Divergences []htmlDivergence
	Reference   *campaignHTMLPicture // the reference's picture, when some divergence has one
	Runs        []htmlRun
	Rows        []htmlRow
	Open        bool
}

// htmlDivergence is a divergence with the picture of its run (nil when
// the run has no outputs or its result was not kept).
type htmlDivergence struct {
	*drivers.Divergence
	Picture *campaignHTMLPicture
}

type htmlRun struct {
	Adapter string
	*drivers.RunResult
}

type htmlRow struct {
	Invocation int
	Args       string
	Reference  string
	Cells      []htmlCell
}

type htmlCell struct {
	Text  string
	Class string // "ok", "bad", "ind", "fail"
	Title string
}

type htmlPage struct {
	*drivers.Report
	Cases    []htmlCase
	Diverged []drivers.RuleSummary
	Quiet    int
	New      int
}

func htmlView(rep *drivers.Report) htmlPage {
	p := htmlPage{Report: rep, New: len(rep.New())}
	byCase := map[string][]*drivers.Divergence{}
	for _, d := range rep.Divergences {
		byCase[d.Case] = append(byCase[d.Case], d)
	}
	for _, s := range rep.Rules {
		if len(s.Adapters) == 0 {
			p.Quiet++
		} else {
			p.Diverged = append(p.Diverged, s)
		}
	}
	for _, cr := range rep.Cases {
		hc := htmlCase{CaseResult: cr, ID: caseID(cr.Name), Open: cr.Diverges()}
		hc.Divergences, hc.Reference = divergencePictures(cr, byCase[cr.Name])
		if cr.TwinInterp != nil {
			hc.Runs = append(hc.Runs, htmlRun{Adapter: "interp", RunResult: cr.TwinInterp})
		}
		for _, c := range cr.Cells {
			for _, r := range c.Runs {
				hc.Runs = append(hc.Runs, htmlRun{Adapter: c.Adapter, RunResult: r})
			}
		}
		for i := 0; i < cr.Invocations; i++ {
			row := htmlRow{Invocation: i, Args: cr.ArgsText(i)}
			if i < len(cr.RefHuman) {
				row.Reference = cr.RefHuman[i]
			}
			for _, r := range hc.Runs {
				cell := htmlCell{Class: "ok"}
				switch {
				case r.Outcome == drivers.Skipped:
					cell.Text, cell.Class, cell.Title = r.Outcome, "skip", r.Error
				case r.Outcome != drivers.Agrees && r.Outcome != drivers.Differs:
					cell.Text, cell.Class = r.Outcome, "fail"
				case i < len(r.Human):
					cell.Text = r.Human[i]
				}
				if slices.Contains(r.Mismatches, i) {
					cell.Class = "bad"
					cell.Title = strings.Join(r.Diffs[i], "\n")
				} else if slices.Contains(r.Indeterminate, i) {
					cell.Class, cell.Title = "ind", "indeterminate in the reference: not compared"
				}
				row.Cells = append(row.Cells, cell)
			}
			hc.Rows = append(hc.Rows, row)
		}
		p.Cases = append(p.Cases, hc)
	}
	return p
}

// divergencePictures pairs each of the case's divergences with the
// picture of its run, drawn from the result its adapter's cell kept, and
// returns the reference's picture when some divergence has one.
func divergencePictures(cr *drivers.CaseResult, ds []*drivers.Divergence) ([]htmlDivergence, *campaignHTMLPicture) {
	var out []htmlDivergence
	var ref *campaignHTMLPicture
	for _, d := range ds {
		hd := htmlDivergence{Divergence: d}
		for _, c := range cr.Cells {
			if c.Adapter != d.Adapter || c.Result == nil {
				continue
			}
			k := divergentRun(c.Result, d)
			if k < 0 || len(c.Result.Runs[k].Outputs) == 0 {
				break
			}
			hd.Picture = runPicture(c.Result, cr.Kernel, k)
			if ref == nil {
				ref = runPicture(c.Result, cr.Kernel, -1)
			}
			break
		}
		out = append(out, hd)
	}
	return out, ref
}

// divergentRun is the index in res.Runs of d's run, or -1.
func divergentRun(res *check.Result, d *drivers.Divergence) int {
	for k, r := range res.Runs {
		if r.Adapter != "interp" && r.Function == d.FunctionName && r.Format == d.Format && check.StageOf(r.Run) == d.Stage {
			return k
		}
	}
	return -1
}

// runPicture draws run k of res (k < 0: the reference), an entry point's
// run drawn as EntryPicture does when the case is a compute entry point's
// (kernel names it), as a data: URI.
func runPicture(res *check.Result, kernel string, k int) *campaignHTMLPicture {
	var run oracle.Run
	var png []byte
	switch {
	case res.IsCompute() && k < 0:
		run = oracle.Run{Adapter: "interp", Function: kernel, Format: oracle.FormatIR}
		png = PNGBytes(EntryPicture(res, kernel, k))
	case res.IsCompute():
		run, png = res.Runs[k].Run, PNGBytes(EntryPicture(res, kernel, k))
	case k < 0:
		run, png = ReferenceRun(res), PNGBytes(RunPicture(res, k))
	default:
		run, png = res.Runs[k].Run, PNGBytes(RunPicture(res, k))
	}
	return &campaignHTMLPicture{Label: RunLabel(run), File: PictureFile(run),
		URI: template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(png))}
}

func caseID(name string) string { return "case-" + idSafe(name) }

func cellID(caseName, adapter string) string {
	return "cell-" + idSafe(caseName) + "-" + idSafe(adapter)
}

func idSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, s)
}

func outcomeClass(o string) string {
	switch o {
	case drivers.Agrees:
		return "ok"
	case drivers.Differs:
		return "bad"
	case drivers.CompileError:
		return "cerr"
	case drivers.Crash, drivers.Timeout:
		return "crash"
	}
	return "fail"
}

var htmlTmpl = template.Must(template.New("report").Funcs(template.FuncMap{
	"caseID":       caseID,
	"cellID":       cellID,
	"outcomeClass": outcomeClass,
	"header":       func(name string) string { return strings.Replace(name, ":", " ", 1) },
	"join":         strings.Join,
	"joinFormats":  joinFormats,
	"ints": func(xs []int) string {
		return countedList(xs, 12)
	},
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>gpudiff drivers — {{len .Cases}} cases × {{len .Adapters}} adapters</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.2em; margin-top: 2em; } h3 { font-size: 1.05em; margin: 0; display: inline; }
table { border-collapse: collapse; margin: .5em 0; }
th, td { border: 1px solid #ccc; padding: 2px 6px; vertical-align: top; }
th { background: #f3f3f3; font-weight: 600; }
.matrix td.name { font-family: monospace; white-space: nowrap; }
.matrix td.cell { text-align: center; white-space: nowrap; font-size: 12px; }
.matrix td.cell a { color: inherit; text-decoration: none; display: block; }
.ok { background: #e3f5e1; } .bad { background: #f8d0cc; font-weight: 600; } .cerr { background: #fbe7b5; }
.crash { background: #e2cdf3; font-weight: 600; } .fail { background: #e4e4e4; } .ind { background: #fff6c8; }
pre { background: #f7f7f7; border: 1px solid #ddd; padding: .5em; overflow-x: auto; font-size: 12px; }
.runs { font-family: monospace; font-size: 12px; }
.runs th { font-family: system-ui, sans-serif; font-size: 11px; }
.runs td { white-space: nowrap; } .runs td.ok { background: none; }
.div { margin: .2em 0; } .div code { font-size: 12px; }
.class { font-weight: 600; } .known { color: #777; } .new { color: #b00; font-weight: 600; }
details { margin: .8em 0; border-top: 1px solid #ddd; padding-top: .4em; }
.scroll { overflow-x: auto; }
.muted { color: #666; }
figure { display: inline-block; margin: .2em .8em .4em 0; vertical-align: top; }
figcaption { font-size: 12px; font-family: monospace; }
img { image-rendering: pixelated; border: 1px solid #ddd; }
</style>
</head>
<body>
<h1>gpudiff drivers</h1>
<p>{{.Tool}} · mode <b>{{.Mode}}</b> · {{len .Cases}} cases × {{len .Adapters}} adapters · {{.Runs}} GPU runs in {{.ElapsedMS}} ms ·
{{len .Divergences}} divergences{{if .Baseline}} ({{.New}} new, baseline {{.Baseline}}){{end}}</p>

<h2>Adapters</h2>
<table>
<tr><th>adapter</th><th>implementation</th><th>implementation version</th><th>compiler</th><th>backend</th><th>driver</th><th>device</th><th>driver version</th></tr>
{{range .Adapters}}<tr><td><code>{{.Name}}</code></td><td>{{.Implementation}}</td><td>{{.ImplementationVersion}}</td><td>{{.Compiler}}</td><td>{{.Backend}}</td><td>{{.Driver}}</td><td>{{.Device}}</td><td>{{.DriverName}} {{.DriverVersion}}{{if .DriverInfo}} ({{.DriverInfo}}){{end}}</td></tr>
{{end}}</table>

<h2>Matrix</h2>
<p class="muted">Each cell aggregates the original kernel and its flattened twin, as WGSL and as gpudiff's SPIR-V (where the implementation takes SPIR-V), worst outcome first; a format alone means both functions. Click a cell for the case.</p>
<table class="matrix">
<tr><th>case</th>{{range .Adapters}}<th>{{header .Name}}</th>{{end}}</tr>
{{range .Cases}}{{$c := .}}<tr><td class="name"><a href="#{{caseID .Name}}">{{.Name}}</a></td>{{range .Cells}}<td class="cell {{outcomeClass .Outcome}}"><a href="#{{cellID $c.Name .Adapter}}">{{.Text}}</a></td>{{end}}</tr>
{{end}}</table>

<h2>Divergences per rule</h2>
{{if .Diverged}}<table>
<tr><th>rule</th><th>cases</th><th>diverging adapters (formats)</th><th>implicated</th></tr>
{{range .Diverged}}{{$s := .}}<tr><td>{{.Rule}}{{if .Spec}}<br><span class="muted">{{.Spec}}</span>{{end}}</td><td>{{range .Cases}}<a href="#{{caseID .}}">{{.}}</a> {{end}}</td>
<td>{{range $a, $f := .Adapters}}<code>{{$a}}</code> ({{joinFormats $f}})<br>{{end}}</td><td>{{range .Culprits}}{{.}}<br>{{end}}</td></tr>
{{end}}</table>{{end}}
<p>Every adapter agrees on {{if .Diverged}}the other {{end}}{{.Quiet}} rules.</p>

<h2>Divergences</h2>
{{if not .Divergences}}<p>None.</p>{{end}}
{{range .Divergences}}<div class="div">{{if $.Baseline}}{{if .Known}}<span class="known">known</span>{{else}}<span class="new">NEW</span>{{end}} {{end}}<a href="#{{cellID .Case .Adapter}}"><code>{{.Key}}</code></a>: {{.Outcome}} → <span class="class">{{.Class}}</span>: {{.Culprit}} — {{.Why}}</div>
{{end}}
{{if .Fixed}}<h3>In the baseline but no longer diverging</h3><ul>{{range .Fixed}}<li><code>{{.}}</code></li>{{end}}</ul>{{end}}

<h2>Cases</h2>
{{range .Cases}}{{$c := .}}
<details id="{{caseID .Name}}"{{if .Open}} open{{end}}>
<summary><h3>{{.Name}}</h3>{{if .Rule}} — {{.Rule}}{{end}}</summary>
{{if .Spec}}<p>spec: {{.Spec}}</p>{{end}}
<p class="muted">{{if .Path}}<code>{{.Path}}</code>, {{end}}{{if .Workgroups}}entry point <code>{{.Kernel}}</code>{{if .Twin}}, twin <code>{{.Twin}}</code>{{end}}, workgroups {{printf "%v" .Workgroups}} (row 0 is the dispatch, its arguments the bindings){{if .Races}}, {{.Races}} data races in the reference (not compared){{end}}{{else}}kernel <code>{{.Kernel}}</code>{{if .Twin}}, twin <code>{{.Twin}}</code>{{end}}, {{.Invocations}} invocations{{end}}{{if .Seed}}, seed {{printf "%+v" .Seed}}{{end}}</p>
{{if .FlattenError}}<p>flatten refused: <code>{{.FlattenError}}</code></p>{{end}}
{{if .Error}}<p class="bad">could not run: {{.Error}}</p>{{end}}
{{range .Cells}}<div id="{{cellID $c.Name .Adapter}}"></div>{{end}}
{{with .Reference}}<figure><img src="{{.URI}}" alt="{{.Label}}"><figcaption>reference: {{.Label}}</figcaption></figure>
{{end}}{{range .Divergences}}<div class="div"><code>{{.Adapter}}</code> {{.Format}}{{if eq (print .Stage) "fragment"}} fragment{{end}} {{.Function}}: {{.Outcome}}{{if .Invocations}} in invocations {{ints .Invocations}}{{end}}{{if .SameAs}} (same outputs as {{join .SameAs ", "}}){{end}} → <span class="class">{{.Class}}</span>: {{.Culprit}} — {{.Why}}{{if .Message}}<br><code>{{.Message}}</code>{{end}}{{with .Picture}}<br><figure><img src="{{.URI}}" alt="{{.Label}}"><figcaption>{{.Label}}</figcaption></figure>{{end}}</div>
{{end}}
{{range $k, $hz := .Hazards}}{{range $hz}}<div class="muted">{{$k}}: gpudiff's raw SPIR-V executes {{.Op}} with {{.Domain}} at {{.Pos.Line}}:{{.Pos.Col}} in invocations {{ints .Invocations}}</div>{{end}}{{end}}
<pre>{{.Source}}</pre>
<div class="scroll"><table class="runs">
<tr><th>#</th><th>arguments</th><th>reference</th>{{range .Runs}}<th>{{.Adapter}}<br>{{.Format}}{{if eq (print .Stage) "fragment"}} fragment{{end}} {{.Function}}</th>{{end}}</tr>
{{range .Rows}}<tr><td>{{.Invocation}}</td><td>{{.Args}}</td><td>{{.Reference}}</td>{{range .Cells}}<td class="{{.Class}}"{{if .Title}} title="{{.Title}}"{{end}}>{{.Text}}</td>{{end}}</tr>
{{end}}</table></div>
</details>
{{end}}
</body>
</html>
`))

// countedList is xs as "1, 2, 3", cut after max with "… N in all".
func countedList(xs []int, max int) string {
	var parts []string
	for i, x := range xs {
		if i == max {
			parts = append(parts, fmt.Sprintf("… %d in all", len(xs)))
			break
		}
		parts = append(parts, fmt.Sprint(x))
	}
	return strings.Join(parts, ", ")
}
