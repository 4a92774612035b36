package chart

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

func TestRenderLineChart(t *testing.T) {
	c := LineChart{
		Title: "Accuracy", XLabel: "supervision", YLabel: "score",
		Series: []Series{
			{Name: "TS-NMF", X: []float64{0.1, 0.2, 0.5}, Y: []float64{0.2, 0.3, 0.5}, Err: []float64{0.01, 0.02, 0.01}},
			{Name: "NMF", X: []float64{0.1, 0.2, 0.5}, Y: []float64{0.1, 0.1, 0.1}, Dashed: true},
		},
	}
	svg, err := Render(c, SVG, Size{})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(bytes.TrimSpace(svg), []byte("<?xml")) || !bytes.Contains(svg, []byte("TS-NMF")) {
		t.Errorf("SVG output does not look right: %.200s", svg)
	}
	png, err := Render(c, PNG, Size{Width: 8, Height: 5})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Error("PNG output lacks the PNG signature")
	}
	if _, err := Render(c, "gif", Size{}); err == nil {
		t.Error("unknown format accepted")
	}
	bad := LineChart{Series: []Series{{Name: "x", X: []float64{1}, Y: []float64{1, 2}}}}
	if _, err := Render(bad, SVG, Size{}); err == nil {
		t.Error("mismatched series accepted")
	}
}

func TestRenderBarsAndHeatmap(t *testing.T) {
	b := Bars{Title: "top words", Labels: []string{"rocket", "orbit"}, Values: []float64{0.3, 0.2}, Horizontal: true}
	svg, err := Render(b, SVG, Size{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(svg), "rocket") {
		t.Error("bar labels missing")
	}
	if _, err := Render(Bars{Labels: []string{"a"}, Values: []float64{1, 2}}, SVG, Size{}); err == nil {
		t.Error("mismatched bars accepted")
	}
	h := Heatmap{Title: "B", RowLabels: []string{"c1", "c2"}, ColLabels: []string{"t1", "t2", "t3"},
		Values: [][]float64{{1, 0, 0.5}, {0, 1, 0.2}}}
	if _, err := Render(h, SVG, Size{}); err != nil {
		t.Fatal(err)
	}
	if _, err := Render(Heatmap{Values: [][]float64{{1}}, RowLabels: []string{"a", "b"}, ColLabels: []string{"x"}}, SVG, Size{}); err == nil {
		t.Error("bad heatmap labels accepted")
	}
}

func TestSlug(t *testing.T) {
	if got := Slug("TS-NMF: Reuters (k = 90)"); got != "ts-nmf-reuters-k-90" {
		t.Errorf("Slug = %q", got)
	}
}

// heatmap returns a rows × cols heatmap with topic-like column labels.
func heatmap(rows, cols int) Heatmap {
	h := Heatmap{Title: "Document-topic weights (each row normalised to sum 1)", ScaleLabel: "share of the document"}
	for i := 0; i < rows; i++ {
		h.RowLabels = append(h.RowLabels, fmt.Sprintf("test/%d", 14800+7*i))
		row := make([]float64, cols)
		for j := range row {
			row[j] = float64((i*31+j*17)%97) / 97
		}
		h.Values = append(h.Values, row)
	}
	names := []string{"acq", "earn", "money-fx", "crude", "money-supply", "interest"}
	for j := 0; j < cols; j++ {
		h.ColLabels = append(h.ColLabels, fmt.Sprintf("%s-%d", names[j%len(names)], j))
	}
	return h
}

// layoutAt lays h out at size s as Render does.
func layoutAt(t *testing.T, h Heatmap, s Size) *heatLayout {
	t.Helper()
	cv := vgsvg.NewWith(vgsvg.UseWH(vg.Length(s.Width)*vg.Centimeter, vg.Length(s.Height)*vg.Centimeter))
	l, err := h.layout(draw.New(cv))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestHeatmapManyColumns(t *testing.T) {
	h := heatmap(30, 90)
	s, err := h.FitSize(0.55, 28)
	if err != nil {
		t.Fatal(err)
	}
	if s.Width > 28.001 {
		t.Errorf("width %.2f cm, want at most 28", s.Width)
	}
	l := layoutAt(t, h, s)
	cellW := (l.cells.Max.X - l.cells.Min.X) / 90
	line := lineHeight(l.p.X.Tick.Label)
	if !l.upright {
		t.Error("90 column labels are written across")
	}
	if l.colStep < 2 || vg.Length(l.colStep)*cellW < line {
		t.Errorf("every %d-th label in %.1f pt columns: labels %.1f pt thick overlap", l.colStep, cellW, line)
	}
	// The colour scale lies right of the cells, inside the figure.
	if l.scale == nil || l.scaleX < l.cells.Max.X+scaleGap/2 || l.scaleX+scaleBar > l.fig.Max.X {
		t.Errorf("colour scale at x = %.1f pt, cells end at %.1f, figure at %.1f", l.scaleX, l.cells.Max.X, l.fig.Max.X)
	}
	svg, err := Render(h, SVG, s)
	if err != nil {
		t.Fatal(err)
	}
	written := 0
	for _, c := range h.ColLabels {
		if bytes.Contains(svg, []byte(">"+c+"<")) {
			written++
		}
	}
	if want := (90 + l.colStep - 1) / l.colStep; written != want {
		t.Errorf("%d column labels written, want %d (every %d-th)", written, want, l.colStep)
	}
	if !bytes.Contains(svg, []byte(`rotate(90)`)) {
		t.Error("no rotated text in the SVG")
	}
}

func TestHeatmapFewColumns(t *testing.T) {
	h := heatmap(5, 4)
	h.ColLabels = []string{"a", "b", "c", "d"}
	s, err := h.FitSize(1, 0)
	if err != nil {
		t.Fatal(err)
	}
	l := layoutAt(t, h, s)
	if l.upright || l.colStep != 1 || l.rowStep != 1 {
		t.Errorf("short labels: upright %v, every %d-th column, %d-th row label", l.upright, l.colStep, l.rowStep)
	}
	if !l.printValues || l.scale != nil {
		t.Error("20 cells: want the values printed and no colour scale")
	}
	h.HideValues = true
	if l := layoutAt(t, h, s); l.printValues || l.scale == nil {
		t.Error("HideValues: want a colour scale")
	}
	// Values too wide for the cells: a scale instead.
	h.HideValues = false
	if l := layoutAt(t, h, Size{Width: 3, Height: 4}); l.printValues {
		t.Error("values printed in cells too small for them")
	}
}

func TestScaleLabels(t *testing.T) {
	for _, c := range []struct {
		lo, hi float64
		want   string
	}{
		{7.6e-06, 0.85, "0.00 0.43 0.85"},
		{6.3e-114, 0.99, "0.00 0.49 0.99"},
		{0, 120, "0 60 120"},
		{-1e-9, 1, "0.0 0.5 1.0"}, // no "-0.0"
	} {
		if got := strings.Join(scaleLabels(c.lo, c.hi), " "); got != c.want {
			t.Errorf("scaleLabels(%g, %g) = %q, want %q", c.lo, c.hi, got, c.want)
		}
	}
}

// TestSVGFont checks that SVG text names the page's font stack and keeps
// its laid-out width whatever font the reader has.
func TestSVGFont(t *testing.T) {
	charts := []Chart{
		heatmap(30, 12),
		Bars{Title: "Topic sizes", Labels: []string{"space", "cooking"}, Values: []float64{0.4, 0.6}, Horizontal: true},
		LineChart{Title: "F1", Series: []Series{{Name: "a", X: []float64{1, 2}, Y: []float64{1, 2}}}},
	}
	for _, c := range charts {
		svg, err := Render(c, SVG, Size{Width: 16, Height: 14})
		if err != nil {
			t.Fatal(err)
		}
		s := string(svg)
		if strings.Contains(s, "Liberation") || !strings.Contains(s, "font-family:"+FontFamily+";") {
			t.Errorf("%T: SVG does not name the font stack %q", c, FontFamily)
		}
		if n, m := strings.Count(s, "<text "), strings.Count(s, `lengthAdjust="spacingAndGlyphs"`); n == 0 || n != m {
			t.Errorf("%T: %d of %d texts keep their width", c, m, n)
		}
	}
	if strings.Contains(FontFamily, `"`) {
		t.Error("FontFamily holds a double quote, which would end an SVG attribute")
	}
}
