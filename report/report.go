package report

import (
	"bytes"
	"context"
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"
	"sort"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/chart"
	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/metrics"
	"github.com/semitopic/semitopic/model"
	"github.com/semitopic/semitopic/sparse"
)

// ClassTopics is implemented by models with a topic-to-class matrix (SSNMF's
// column-normalised B): classes × topics.
type ClassTopics interface {
	ClassTopicMatrix() (classes []string, m *mat.Dense)
}

// TopicTC is implemented by models whose topics have a total correlation
// (CorEx): nats per topic, in topic order. Only these get the total
// correlation chart.
type TopicTC interface {
	TotalCorrelations() []float64
}

// Options configures a report.
type Options struct {
	// Title heads the page (default: the model kind and corpus).
	Title string
	// Words is the number of top words per topic (default 10).
	Words int
	// HeatmapDocs bounds the documents of the heatmap sample (default 30).
	HeatmapDocs int
}

// Data is an optional document collection to show the model on: the
// heatmap sample and, when documents carry labels, the evaluation figures,
// all computed on these documents. X is the documents mapped to the
// model's vocabulary, a row per document.
type Data struct {
	Docs []corpus.Document
	X    *sparse.CSR
	// Scope says in the page what the documents are, after their count:
	// "test documents, never labeled in the fit" reads "evaluated on 96
	// test documents, never labeled in the fit". Empty: "documents given
	// to the report".
	Scope string
	// Training says whether the documents were among the model's training
	// documents, in a sentence shown with the evaluation figures ("" for
	// none); Overstated marks a sentence that says some were, shown as a
	// warning: the figures then overstate how the model does on new
	// documents.
	Training   string
	Overstated bool
}

// page is what the template renders: one or more models.
type page struct {
	Title    string
	Subtitle string
	Font     template.CSS
	Models   []*modelView
}

// modelView is one model's part of the page.
type modelView struct {
	Anchor     string
	Title      string
	Subtitle   string
	Params     []kv
	Notes      []string
	SizeChart  template.HTML
	TCChart    template.HTML
	Topics     []topicView
	Groups     bool
	Purity     bool // some word has a purity (theme models)
	Negative   bool // some word's absence is informative (CorEx)
	ClassChart template.HTML
	Heatmap    template.HTML
	HeatNote   string
	Eval       []kv
	EvalNotes  []string
	// Training and Overstated are Data's.
	Training   string
	Overstated bool
	// Empty says how many topics are empty and which ("" when none):
	// they are left out of the charts and the topic cards.
	Empty string
}

type kv struct{ K, V string }

type topicView struct {
	Name, Label, Group, Weight string
	Bars                       template.HTML
}

// chartLabel is the most characters of a topic name a chart shows (the
// rest is cut to "…"), so that a long name does not squeeze the chart.
const chartLabel = 28

// Entry is one model of a multi-model report.
type Entry struct {
	// Title heads the model's section (default: its kind).
	Title  string
	Fitted *model.Fitted
	// Data is optional (see Write).
	Data *Data
}

// Write renders the report of f to w. data may be nil.
func Write(ctx context.Context, w io.Writer, f *model.Fitted, data *Data, o Options) error {
	title := o.Title
	if title == "" {
		title = fmt.Sprintf("%s model", strings.ToUpper(f.Model.Kind()))
	}
	return WriteMany(ctx, w, title, "", []Entry{{Title: title, Fitted: f, Data: data}}, o)
}

// WriteMany renders one page with a section per model, in order.
func WriteMany(ctx context.Context, w io.Writer, title, subtitle string, entries []Entry, o Options) error {
	if o.Words <= 0 {
		o.Words = 10
	}
	if o.HeatmapDocs <= 0 {
		o.HeatmapDocs = 30
	}
	pg := page{Title: title, Subtitle: subtitle, Font: template.CSS(chart.FontFamily)}
	for i, e := range entries {
		mv, err := buildModel(ctx, e, o)
		if err != nil {
			return fmt.Errorf("report: %s: %w", e.Title, err)
		}
		mv.Anchor = fmt.Sprintf("model-%d", i+1)
		pg.Models = append(pg.Models, mv)
	}
	if len(pg.Models) == 1 && pg.Subtitle == "" {
		pg.Subtitle = pg.Models[0].Subtitle
	}
	t, err := template.New("report").Parse(pageTemplate)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, pg); err != nil {
		return err
	}
	_, err = w.Write(buf.Bytes())
	return err
}

func buildModel(ctx context.Context, e Entry, o Options) (*modelView, error) {
	f, data := e.Fitted, e.Data
	m := f.Model
	topics, err := m.Topics(o.Words)
	if err != nil {
		return nil, err
	}
	p := &modelView{Title: e.Title}
	if p.Title == "" {
		p.Title = fmt.Sprintf("%s model", strings.ToUpper(m.Kind()))
	}

	p.Params = paramList(f.Info)
	p.Notes = f.Info.Notes

	// Empty topics (model.EmptyTopics) are left out of the charts and the
	// cards, and counted in one line.
	empty := make([]bool, len(topics))
	var emptyNames []string
	for i, t := range topics {
		empty[i] = t.Empty
	}
	for _, t := range model.EmptyTopics(topics) {
		emptyNames = append(emptyNames, t.Title())
	}
	p.Empty = emptyLine(emptyNames)
	numTopics := thousands(m.NumTopics()) + " topics"
	if len(emptyNames) > 0 {
		numTopics += fmt.Sprintf(" (%s empty)", thousands(len(emptyNames)))
	}
	p.Subtitle = fmt.Sprintf("%s over %s terms, fitted on %s documents of %s in %.1f s (%s)",
		numTopics, thousands(len(f.Vocab)), thousands(f.Info.Documents), orDash(f.Info.Corpus), f.Info.Seconds, orDash(f.Info.Created))

	// Topic sizes.
	var names, shown []string
	var sizes []float64
	hasSize := false
	for i, t := range topics {
		names = append(names, t.Name)
		if empty[i] {
			continue
		}
		shown = append(shown, clip(t.Name, chartLabel))
		sizes = append(sizes, t.Weight)
		hasSize = hasSize || t.Weight > 0
	}
	if hasSize {
		svg, err := svgOf(chart.Bars{Title: "Topic sizes", ValueLabel: "share of the training corpus", Labels: shown, Values: sizes, Horizontal: true},
			barsSize(len(shown)))
		if err != nil {
			return nil, err
		}
		p.SizeChart = svg
	}
	if tm, ok := m.(TopicTC); ok && len(tm.TotalCorrelations()) == len(names) && len(shown) > 0 {
		var tc []float64
		for i, v := range tm.TotalCorrelations() {
			if !empty[i] {
				tc = append(tc, v)
			}
		}
		svg, err := svgOf(chart.Bars{Title: "Total correlation per topic (nats)", ValueLabel: "TC", Labels: shown, Values: tc, Horizontal: true},
			barsSize(len(shown)))
		if err != nil {
			return nil, err
		}
		p.TCChart = svg
	}
	for i, t := range topics {
		if empty[i] {
			continue
		}
		v := topicView{Name: t.Title(), Label: t.Label, Group: t.Group, Bars: wordBars(t.Words)}
		if strings.HasPrefix(v.Name, v.Label) {
			v.Label = "" // the name says it already
		}
		if t.Weight > 0 {
			v.Weight = fmt.Sprintf("%.1f%%", 100*t.Weight)
		}
		p.Groups = p.Groups || t.Group != ""
		for _, w := range t.Words {
			p.Purity = p.Purity || w.Purity != nil
			p.Negative = p.Negative || w.Sign < 0
		}
		p.Topics = append(p.Topics, v)
	}
	if ct, ok := m.(ClassTopics); ok {
		classes, cm := ct.ClassTopicMatrix()
		if cm != nil {
			r, c := cm.Dims()
			if c != len(names) {
				return nil, fmt.Errorf("the topic-to-class matrix has %d topics, the model %d", c, len(names))
			}
			vals := make([][]float64, r)
			for i := range vals {
				for t, v := range cm.RawRowView(i) {
					if !empty[t] {
						vals[i] = append(vals[i], v)
					}
				}
			}
			var cols []string
			for t := range c {
				if !empty[t] {
					cols = append(cols, clip(names[t], 24))
				}
			}
			svg, err := heatmapSVG(chart.Heatmap{Title: "Topic-to-class matrix (column-normalised B)", RowLabels: classes, ColLabels: cols,
				XLabel: "topic", YLabel: "class", ScaleLabel: "share of the topic", Values: vals}, 0.6)
			if err != nil {
				return nil, err
			}
			p.ClassChart = svg
		}
	}
	if data != nil && data.X != nil && data.X.Rows > 0 {
		if err := evaluate(ctx, p, f, data, names, empty, o); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// emptyLine is the one line that stands for the empty topics: how many,
// and the first few names.
func emptyLine(names []string) string {
	if len(names) == 0 {
		return ""
	}
	const shown = 8
	var list []string
	for _, n := range names[:min(len(names), shown)] {
		list = append(list, clip(n, chartLabel))
	}
	more := ""
	if len(names) > shown {
		more = fmt.Sprintf(" and %d more", len(names)-shown)
	}
	what := "empty topics (no word, or no share of the training corpus), left out of the charts and the list"
	if len(names) == 1 {
		what = "empty topic (no word, or no share of the training corpus), left out of the charts and the list"
	}
	return fmt.Sprintf("%d %s: %s%s.", len(names), what, strings.Join(list, ", "), more)
}

// barsSize is the size of a horizontal bar chart of n topics: room for
// each bar and its label.
func barsSize(n int) chart.Size {
	return chart.Size{Width: 16, Height: math.Max(6, 2.5+0.5*float64(n))}
}

// maxWidthCm is the widest a chart is drawn, in centimetres: about the
// page's content width, so that charts are not scaled down.
const maxWidthCm = 28

// heatmapSVG renders h at its natural size for cells of cell centimetres.
func heatmapSVG(h chart.Heatmap, cell float64) (template.HTML, error) {
	size, err := h.FitSize(cell, maxWidthCm)
	if err != nil {
		return "", err
	}
	return svgOf(h, size)
}

// emptyRows marks the rows of x with no non-zero entry: documents with no
// term known to the model.
func emptyRows(x *sparse.CSR) []bool {
	out := make([]bool, x.Rows)
	for i := range out {
		out[i] = true
		_, vals := x.Row(i)
		for _, v := range vals {
			if v != 0 {
				out[i] = false
				break
			}
		}
	}
	return out
}

// evaluate adds the heatmap sample and, for labeled documents, the
// evaluation figures, all on the documents of data.
func evaluate(ctx context.Context, p *modelView, f *model.Fitted, data *Data, names []string, emptyTopic []bool, o Options) error {
	if len(data.Docs) != data.X.Rows {
		return fmt.Errorf("%d documents for %d rows of X", len(data.Docs), data.X.Rows)
	}
	W, err := f.Model.Transform(ctx, data.X)
	if err != nil {
		return fmt.Errorf("report: transform: %w", err)
	}
	n, k := W.Dims()
	if n != data.X.Rows {
		return fmt.Errorf("transform gave %d rows for %d documents", n, data.X.Rows)
	}
	// A document with no known term has no topic, whatever the model
	// makes of an empty row (LDA its prior, CorEx the absence of every
	// word).
	empty := emptyRows(data.X)
	numEmpty := 0
	for i, e := range empty {
		if e {
			numEmpty++
			row := W.RawRowView(i)
			for t := range row {
				row[t] = 0
			}
		}
	}
	scope := thousands(n) + " " + data.Scope
	switch {
	case data.Scope != "":
	case n == 1:
		scope = "1 document given to the report"
	default:
		scope += "documents given to the report"
	}

	// Heatmap: an evenly spaced sample of documents, topics ordered by
	// total weight in the sample (at most 30 shown).
	step := max(1, n/o.HeatmapDocs)
	var rows []int
	for i := 0; i < n && len(rows) < o.HeatmapDocs; i += step {
		rows = append(rows, i)
	}
	tw := make([]float64, k)
	for _, i := range rows {
		for t := 0; t < k; t++ {
			tw[t] += W.At(i, t)
		}
	}
	var cols []int
	for t := range k {
		if t >= len(emptyTopic) || !emptyTopic[t] {
			cols = append(cols, t)
		}
	}
	sort.SliceStable(cols, func(a, b int) bool { return tw[cols[a]] > tw[cols[b]] })
	if len(cols) > 30 {
		cols = cols[:30]
	}
	// With every topic empty there is no column to show.
	if len(cols) > 0 {
		vals := make([][]float64, len(rows))
		rowLabels := make([]string, len(rows))
		colLabels := make([]string, len(cols))
		for c, t := range cols {
			colLabels[c] = clip(names[t], 24)
		}
		sampleEmpty := 0
		for r, i := range rows {
			vals[r] = make([]float64, len(cols))
			sum := 0.0
			for t := 0; t < k; t++ {
				sum += W.At(i, t)
			}
			for c, t := range cols {
				if sum > 0 {
					vals[r][c] = W.At(i, t) / sum
				}
			}
			rowLabels[r] = clip(data.Docs[i].ID, 24)
			if empty[i] {
				sampleEmpty++
			}
		}
		svg, err := heatmapSVG(chart.Heatmap{Title: "Document-topic weights (each row normalised to sum 1)", RowLabels: rowLabels, ColLabels: colLabels,
			ScaleLabel: "share of the document", HideValues: true, Values: vals}, 0.55)
		if err != nil {
			return err
		}
		p.Heatmap = svg
		p.HeatNote = fmt.Sprintf("A sample of %d of the %s, evenly spaced; the %d topics with the most weight among them.", len(rows), scope, len(cols))
		if sampleEmpty > 0 {
			p.HeatNote += fmt.Sprintf(" %s no term known to the model: an empty row.", have(sampleEmpty))
		}
	}

	labelNames, idx := corpus.LabelIndex(data.Docs)
	if len(labelNames) == 0 {
		return nil
	}
	labeled, labeledEmpty := 0, 0
	for i, l := range idx {
		if len(l) > 0 {
			labeled++
			if empty[i] {
				labeledEmpty++
			}
		}
	}
	p.Training, p.Overstated = data.Training, data.Overstated
	p.Eval = append(p.Eval, kv{"evaluated on", scope})
	p.Eval = append(p.Eval, kv{"labeled documents", fmt.Sprintf("%s of %s, %s labels", thousands(labeled), thousands(n), thousands(len(labelNames)))})
	if pr, ok := model.AsPredictor(f.Model); ok && labeled > 0 {
		pred, err := pr.Predict(ctx, data.X)
		if err != nil {
			return err
		}
		if len(pred.Labels) != n {
			return fmt.Errorf("%d predictions for %d documents", len(pred.Labels), n)
		}
		truth := corpus.DocLabels(data.Docs)
		// A document with no known term gets no label, whatever the model
		// made of its empty row.
		scored := *pred
		scored.Labels = slices.Clone(pred.Labels)
		for i, e := range empty {
			if e {
				scored.Labels[i] = nil
			}
		}
		hits, _, _, err := scored.Accuracy(truth)
		if err != nil {
			return err
		}
		p.Eval = append(p.Eval, kv{"accuracy of predicted labels", fmt.Sprintf("%.2f%% (%s of %s labeled documents)", 100*float64(hits)/float64(labeled), thousands(hits), thousands(labeled))})
	}
	ev, err := metrics.EvaluateTopics(ctx, W, idx, len(labelNames), metrics.EvaluateOptions{})
	if err != nil {
		return err
	}
	if j := ev.Jaccard; j != nil {
		p.Eval = append(p.Eval, kv{"mean matched weighted Jaccard (TS-NMF paper)", fmt.Sprintf("%.4f, %d of %d labels resolved", j.Mean, j.Resolved, j.Scored)})
	}
	if lr := ev.LogRank; lr != nil {
		p.Eval = append(p.Eval, kv{"log rank accuracy, optimal mapping (theme-supervised thesis)", fmt.Sprintf("%.2f%%", 100*lr.Exact)})
	}
	if c := ev.Cluster; c != nil {
		docs := thousands(c.Documents) + " single-label documents"
		if c.LeftOut > 0 {
			docs += fmt.Sprintf("; %s without topic weight left out", thousands(c.LeftOut))
		}
		p.Eval = append(p.Eval, kv{"argmax-topic clustering vs label", fmt.Sprintf("homogeneity %.3f, completeness %.3f, NMI %.3f, AMI %.3f (%s)",
			c.Homogeneity, c.Completeness, c.NMI, c.AMI, docs)})
	}
	p.EvalNotes = append(p.EvalNotes, fmt.Sprintf("Computed on %s, mapped to the model's vocabulary with its own text pipeline.", scope))
	if labeledEmpty > 0 {
		p.EvalNotes = append(p.EvalNotes, fmt.Sprintf("%s no term known to the model and got no label; they count as errors "+
			"(in the accuracy and the Jaccard and log rank figures, as the metrics define them; the clustering leaves them out).", have(labeledEmpty)))
	}
	if unl := numEmpty - labeledEmpty; unl > 0 {
		p.EvalNotes = append(p.EvalNotes, fmt.Sprintf("Of the unlabeled documents, %s no term known to the model.", have(unl)))
	}
	return nil
}

// have is "1 document has" or "N documents have".
func have(n int) string {
	if n == 1 {
		return "1 document has"
	}
	return thousands(n) + " documents have"
}

// thousands writes n with commas between groups of three digits.
func thousands(n int) string {
	if n < 0 {
		return "-" + thousands(-n)
	}
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// svgOf renders a chart as inline SVG (without the XML prolog).
func svgOf(c chart.Chart, s chart.Size) (template.HTML, error) {
	b, err := chart.Render(c, chart.SVG, s)
	if err != nil {
		return "", err
	}
	if i := bytes.Index(b, []byte("<svg")); i > 0 {
		b = b[i:]
	}
	return template.HTML(b), nil
}

// wordBars draws a topic's top words as a small hand-written SVG bar chart;
// words with a purity get a second, thinner bar.
func wordBars(words []model.Word) template.HTML {
	if len(words) == 0 {
		return template.HTML(`<p class="muted">no words</p>`)
	}
	maxW := 0.0
	for _, w := range words {
		maxW = math.Max(maxW, w.Weight)
	}
	const rowH, labelW, barW = 18, 110, 150
	valueW := 70 // room right of a full bar for its value
	for _, w := range words {
		if w.Purity != nil {
			valueW = 110 // and its purity
		}
	}
	var b strings.Builder
	h := rowH*len(words) + 4
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" role="img" font-family="%s" font-size="12">`, labelW+barW+valueW, h, template.HTMLEscapeString(chart.FontFamily))
	for i, w := range words {
		y := i*rowH + 2
		bw := 0.0
		if maxW > 0 {
			bw = barW * w.Weight / maxW
		}
		fill := "#0072b2"
		if w.Sign < 0 {
			fill = "#d55e00"
		}
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end">%s</text>`, labelW-6, y+12, template.HTMLEscapeString(clip(w.Word, 18)))
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"><title>%s: %.4g</title></rect>`, labelW, y+2, bw, 10, fill, template.HTMLEscapeString(w.Word), w.Weight)
		label := fmt.Sprintf("%.3g", w.Weight)
		if w.Purity != nil {
			fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%.1f" height="3" fill="#009e73"><title>purity %.2f</title></rect>`, labelW, y+13, barW**w.Purity, *w.Purity)
			label += fmt.Sprintf(" · p %.2f", *w.Purity)
		}
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" fill="#555">%s</text>`, float64(labelW)+bw+4, y+12, label)
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

func paramList(info model.Info) []kv {
	o := info.Params
	out := []kv{{"kind", o.Kind}}
	add := func(k string, v any, set bool) {
		if set {
			out = append(out, kv{k, fmt.Sprint(v)})
		}
	}
	add("topics (k)", o.K, o.K > 0)
	add("seed", o.Seed, true)
	add("loss", o.Loss, o.Loss != "")
	add("initialisation", o.Init, o.Init != "")
	add("max iterations", o.MaxIter, o.MaxIter > 0)
	add("tolerance", o.Tol, o.Tol > 0)
	add("weighting", o.Weighting, o.Weighting != "")
	add("subtopics", o.Subtopics, o.Subtopics > 0)
	add("training", o.Mode, o.Mode != "")
	add("new topics", o.NewTopics, o.NewTopics > 0)
	add("theme background barred from the theme's documents", o.NoThemeBackground, o.NoThemeBackground)
	add("lambda", o.Lambda, o.Lambda != 0)
	add("beta", o.Beta, o.Beta != 0)
	add("restarts", o.Restarts, o.Restarts > 0)
	add("readout", o.Readout, o.Readout != "")
	if s := info.Search; s != nil && len(s.Candidates) > 0 {
		c := s.ChosenCandidate()
		if s.Note != "" {
			add("automatic configuration", s.Note, true)
		} else {
			add("automatic configuration", fmt.Sprintf("kept %s: %.1f%% ± %.1f cross-validated over %d labeled documents (%d folds; %d candidates); a linear SVM on the same labels %.1f%% ± %.1f",
				c.Settings(), c.Accuracy, c.SD, s.Labeled, s.Folds, len(s.Candidates), s.SVM.Accuracy, s.SVM.SD), true)
		}
	}
	add("iterations run", info.Iterations, info.Iterations > 0)
	add("convergence", info.Convergence, true)
	add("final objective", fmt.Sprintf("%.6g", info.Objective), info.Objective != 0)
	return out
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
