package report

const pageTemplate = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
  body { font: 15px/1.45 {{.Font}}; margin: 0; color: #1b1f24; background: #f6f7f9; }
  header { background: #0b3d63; color: #fff; padding: 18px 28px; }
  header h1 { margin: 0; font-size: 22px; }
  header p { margin: 4px 0 0; opacity: .85; }
  main { max-width: 1200px; margin: 0 auto; padding: 16px 28px 40px; }
  section { background: #fff; border: 1px solid #dde1e6; border-radius: 8px; padding: 14px 18px; margin: 16px 0; overflow-x: auto; }
  h2 { font-size: 17px; margin: 0 0 10px; }
  table { border-collapse: collapse; }
  td { padding: 3px 14px 3px 0; vertical-align: top; }
  td:first-child { color: #555; }
  .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(340px, 1fr)); gap: 10px 20px; }
  .topic { min-width: 0; }
  /* A long topic name wraps within its card (its full text in the title)
     rather than running into the next card's words. */
  .topic h3 { font-size: 14px; margin: 8px 0 2px; overflow-wrap: anywhere; }
  .warn { color: #8a3b00; background: #fff4e5; border-left: 4px solid #d55e00; padding: 6px 10px; }
  .topic h3 small { color: #666; font-weight: normal; }
  .muted { color: #666; }
  svg { max-width: 100%; height: auto; }
  h1.model { font-size: 20px; margin: 28px 0 0; }
  nav a { color: #0b3d63; }
</style>
</head>
<body>
<header>
  <h1>{{.Title}}</h1>
  <p>{{.Subtitle}}</p>
</header>
<main>
{{if gt (len .Models) 1}}<nav class="muted">Models: {{range .Models}}<a href="#{{.Anchor}}">{{.Title}}</a> · {{end}}</nav>{{end}}
{{range .Models}}<article id="{{.Anchor}}">
{{if gt (len $.Models) 1}}<h1 class="model">{{.Title}}</h1><p class="muted">{{.Subtitle}}</p>{{end}}
<section>
  <h2>Model</h2>
  <table>{{range .Params}}<tr><td>{{.K}}</td><td>{{.V}}</td></tr>{{end}}</table>
  {{range .Notes}}<p class="muted">{{.}}</p>{{end}}
</section>
{{if .Eval}}<section>
  <h2>Evaluation</h2>
  {{if .Training}}<p class="{{if .Overstated}}warn{{else}}muted{{end}}">{{.Training}}</p>{{end}}
  <table>{{range .Eval}}<tr><td>{{.K}}</td><td>{{.V}}</td></tr>{{end}}</table>
  {{range .EvalNotes}}<p class="muted">{{.}}</p>{{end}}
</section>{{end}}
{{if .SizeChart}}<section><h2>Topic sizes</h2>{{.SizeChart}}{{if .Empty}}<p class="muted">Empty topics are not shown (see Topics).</p>{{end}}</section>{{end}}
{{if .TCChart}}<section><h2>Total correlation per topic</h2>{{.TCChart}}</section>{{end}}
{{if .ClassChart}}<section><h2>Topics and classes</h2>{{.ClassChart}}</section>{{end}}
<section>
  <h2>Topics</h2>
  <p class="muted">Top words by weight in the topic{{if .Groups}}; topics are grouped by theme{{end}}.{{if .Purity}} A green underline is the word's purity.{{end}}{{if .Negative}} Orange bars are words whose absence is informative.{{end}}</p>
  <div class="grid">
  {{range .Topics}}<div class="topic">
    <h3 title="{{.Name}}">{{.Name}}{{if .Label}}{{if ne .Label .Name}} <small>({{.Label}})</small>{{end}}{{end}}{{if .Weight}} <small>{{.Weight}} of the corpus</small>{{end}}</h3>
    {{.Bars}}
  </div>{{end}}
  </div>
  {{if .Empty}}<p class="muted">{{.Empty}}</p>{{end}}
</section>
{{if .Heatmap}}<section><h2>Documents and topics</h2>{{.Heatmap}}<p class="muted">{{.HeatNote}}</p></section>{{end}}
</article>{{end}}
<footer class="muted" style="padding: 0 0 20px">Written by semitopic.</footer>
</main>
</body>
</html>
`
