package report

import (
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/gpudiff/gpudiff/campaign"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/oracle"
)

// WriteCampaignHTML writes run's --html page (README "gpudiff run"): one
// self-contained HTML page (inline CSS, no scripts, no external
// resources) with the campaign's options, the summary table (the text
// summary's rows), the bug-class table (WriteClassTable's), and each bug
// once — its state, signature, class and adapter, attribution, what knows
// a known bug (its finding, or the family of one), its bug classes, the programs that met it with their derived seeds,
// its case file and the command that replays it (gpudiff repro CASE), and
// pictures of the case's runs (ResultPictures, EntryPictures) embedded as
// data: URIs: the reference's and every run that does not pass. A bug
// whose case this run did not save (no corpus, a known bug, a record read
// from a resumed journal) has no picture, and the page says why.
func WriteCampaignHTML(w io.Writer, c campaign.Spec, run CampaignRun, s *campaign.Summary) error {
	return campaignHTMLTmpl.Execute(w, campaignHTMLView(c, run, s))
}

// campaignHTMLPage is the page's data: the campaign's Spec, with the
// run's Tool and Drivers in place of the Spec's.
type campaignHTMLPage struct {
	campaign.Spec
	Tool        string
	Drivers     []harness.DriverRecord
	Title       string
	Interrupted bool
	Rows        []campaignRow
	Hashes      string
	Bugs        []campaignHTMLBug
	// Classes is the bug-class table (campaign.ClassCounts), Legend how it
	// counts, Unclassified what a resumed older journal left without classes.
	Classes      []campaign.ClassCount
	Legend       string
	Unclassified string
	Flaky        bool // a column for unconfirmed bugs
}

type campaignHTMLBug struct {
	campaign.Bug
	ID        string
	StateText string
	Seeds     []string // "#i (seed 0x…)", Programs order
	CasePath  string
	Shrunk    string
	Pictures  []campaignHTMLPicture
	Passing   int    // runs that pass, not drawn
	NoPicture string // why there is no picture
	KnownText string // what knows a known bug (campaign.Bug.KnownText)
	Classes   string // its bug classes, joined
}

type campaignHTMLPicture struct {
	Label string
	File  string
	URI   template.URL // data:image/png;base64,…
}

func campaignHTMLView(c campaign.Spec, run CampaignRun, s *campaign.Summary) campaignHTMLPage {
	p := campaignHTMLPage{Spec: c, Tool: run.Tool, Drivers: run.Drivers, Interrupted: s.Interrupted, Rows: campaignRows(s), Hashes: hashesLine(s),
		Title: fmt.Sprintf("gpudiff run --seed %d: %d programs", c.Seed, s.Programs)}
	if s.Interrupted {
		p.Title = fmt.Sprintf("INTERRUPTED: gpudiff run --seed %d, %d programs", c.Seed, s.Programs)
	}
	p.Classes, p.Legend, p.Flaky = campaign.ClassCounts(s, c.Profile), ClassLegend, s.Flaky > 0
	if s.Unclassified > 0 {
		p.Unclassified = fmt.Sprintf("%d of the %d programs carry no classes (journaled by a gpudiff from before bug classes) and are counted in no class.", s.Unclassified, s.Programs)
	}
	for k, b := range campaign.Bugs(s.Failures) {
		hb := campaignHTMLBug{Bug: b, ID: fmt.Sprintf("bug-%d", k+1),
			StateText: map[string]string{"new": "NEW", "known": "known", "unconfirmed": "flaky"}[b.State],
			Classes:   strings.Join(b.BugClasses, ", ")}
		if b.State == "known" {
			hb.KnownText = b.KnownText()
		}
		for j, i := range b.Programs {
			hb.Seeds = append(hb.Seeds, fmt.Sprintf("#%d (seed %#x)", i, b.Seeds[j]))
		}
		if b.Case != "" {
			hb.CasePath = filepath.Join(c.Corpus, b.Case)
			if b.ShrunkStmts < b.Stmts {
				hb.Shrunk = fmt.Sprintf("program #%d, shrunk %d → %d statements", b.CaseIndex, b.Stmts, b.ShrunkStmts)
			} else {
				hb.Shrunk = fmt.Sprintf("program #%d, %d statements, not shrunk", b.CaseIndex, b.Stmts)
			}
		}
		hb.Pictures, hb.Passing, hb.NoPicture = bugPictures(b)
		p.Bugs = append(p.Bugs, hb)
	}
	return p
}

// bugPictures are the pictures of b's saved case: the reference's and
// each run's that does not pass (passing counts those left out), or why
// there are none.
func bugPictures(b campaign.Bug) (pics []campaignHTMLPicture, passing int, why string) {
	var named []NamedPicture
	var verdicts []oracle.Verdict
	switch {
	case b.Saved != nil && b.Saved.Result != nil:
		res := b.Saved.Result
		if res.IsCompute() {
			named = EntryPictures(res, res.ABI.Kernel)
		} else {
			named = ResultPictures(res)
		}
		for _, r := range res.Runs {
			verdicts = append(verdicts, r.Verdict)
		}
	case b.Case == "" && b.CaseError == "":
		return nil, 0, "no case file was saved for this bug (no --corpus, or a known bug not shrunk), so there is no picture"
	case b.Case == "":
		return nil, 0, "the case file could not be saved, so there is no picture"
	default:
		return nil, 0, "this run did not save the case file (a resumed journal's program), so there is no picture; gpudiff exec --png draws one from the case"
	}
	for k, n := range named {
		if k > 0 && k-1 < len(verdicts) && verdicts[k-1] == oracle.Pass {
			passing++
			continue
		}
		pics = append(pics, campaignHTMLPicture{Label: n.Label, File: n.File,
			URI: template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(n.PNG))})
	}
	return pics, passing, ""
}

var campaignHTMLTmpl = template.Must(template.New("campaign").Funcs(template.FuncMap{
	"join": func(xs []string) string { return strings.Join(xs, ", ") },
	"value": func(v any) string {
		if d, ok := v.(time.Duration); ok {
			return d.String()
		}
		return fmt.Sprint(v)
	},
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{.Title}}</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.2em; margin-top: 2em; } h3 { font-size: 1.05em; margin: 1.2em 0 .3em; }
table { border-collapse: collapse; margin: .5em 0; }
th, td { border: 1px solid #ccc; padding: 2px 6px; vertical-align: top; }
th { background: #f3f3f3; font-weight: 600; text-align: left; }
td.num { text-align: right; font-family: monospace; }
pre { background: #f7f7f7; border: 1px solid #ddd; padding: .5em; overflow-x: auto; font-size: 12px; }
.bug { border-top: 1px solid #ddd; padding-top: .4em; margin-top: 1em; }
.new { color: #b00; font-weight: 600; } .known { color: #777; } .flaky { color: #a60; font-weight: 600; }
.interrupted { background: #f8d0cc; padding: .4em; font-weight: 600; }
figure { display: inline-block; margin: .4em .8em .4em 0; vertical-align: top; }
figcaption { font-size: 12px; font-family: monospace; }
img { image-rendering: pixelated; border: 1px solid #ddd; }
.muted { color: #666; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
{{if .Interrupted}}<p class="interrupted">The campaign was interrupted: this page covers the programs checked until then.</p>{{end}}
<p>{{.Tool}} · seed {{.Seed}}{{if .Count}} · count {{.Count}}{{end}}{{if .Duration}} · duration {{.Duration}}{{end}}{{if .Shard}} · shard {{.Shard}}{{end}} · size {{.Size}} · profile {{.Profile}} · mode {{.Mode}} ·
adapters {{if .Adapters}}{{join .Adapters}}{{else}}none (interpreter only){{end}}{{if .Corpus}} · corpus <code>{{.Corpus}}</code>{{end}}</p>
{{if .Drivers}}
<h2>Drivers</h2>
<table>
<tr><th>adapter</th><th>driver</th><th>version</th><th>driver info</th><th>conformance</th><th>implementation</th></tr>
{{range .Drivers}}<tr><td><code>{{.Adapter}}</code></td><td>{{.Driver}}</td><td>{{.Version}}</td><td>{{.Info}}</td><td>{{.Conformance}}</td><td>{{.ImplementationVersion}}</td></tr>
{{end}}</table>
{{end}}
<h2>Summary</h2>
<table>
{{range .Rows}}<tr><th>{{.Name}}</th><td class="num">{{value .Value}}</td></tr>
{{end}}</table>
{{if .Hashes}}<p class="muted">{{.Hashes}}</p>{{end}}

<h2>Bug classes</h2>
<table>
<tr><th>class</th><th>programs</th><th>new bugs</th><th>known bugs</th>{{if .Flaky}}<th>unconfirmed</th>{{end}}<th>no programs because</th></tr>
{{range .Classes}}<tr><td><code title="{{.Doc}}">{{.Class}}</code></td><td class="num">{{.Programs}}</td><td class="num">{{.NewBugs}}{{if .NewBugs}} ({{.NewPrograms}} {{if eq .NewPrograms 1}}program{{else}}programs{{end}}){{end}}</td><td class="num">{{.KnownBugs}}</td>{{if $.Flaky}}<td class="num">{{.FlakyBugs}}</td>{{end}}<td class="muted">{{.Why}}</td></tr>
{{end}}</table>
<p class="muted">{{.Legend}}</p>
{{if .Unclassified}}<p class="muted">{{.Unclassified}}</p>{{end}}

<h2>Bugs</h2>
{{if not .Bugs}}<p>None.</p>{{end}}
{{range .Bugs}}<div class="bug" id="{{.ID}}">
<h3><span class="{{if eq .State "new"}}new{{else if eq .State "known"}}known{{else}}flaky{{end}}">{{.StateText}}</span> <code>{{.Signature}}</code></h3>
<p>class <b>{{.Class}}</b>{{if .Adapter}} on <code>{{.Adapter}}</code>{{end}}: {{.Implicates}}</p>
{{if .KnownText}}<p class="known">known: {{.KnownText}}</p>{{end}}
{{if .Classes}}<p>bug classes: {{.Classes}}</p>{{end}}
<p>{{len .Programs}} {{if eq (len .Programs) 1}}program{{else}}programs{{end}}: {{join .Seeds}}</p>
{{if .CasePath}}<p>case: <code>{{.CasePath}}</code> ({{.Shrunk}})</p>
<pre>gpudiff repro {{.CasePath}}</pre>{{end}}
{{if .CaseError}}<p class="new">case NOT saved: {{.CaseError}}</p>{{end}}
{{if .NoPicture}}<p class="muted">{{.NoPicture}}</p>{{else}}<div>
{{range .Pictures}}<figure><img src="{{.URI}}" alt="{{.Label}}"><figcaption>{{.Label}}</figcaption></figure>
{{end}}</div>{{if .Passing}}<p class="muted">{{.Passing}} {{if eq .Passing 1}}run passes and is{{else}}runs pass and are{{end}} not drawn.</p>{{end}}{{end}}
</div>
{{end}}
</body>
</html>
`))
