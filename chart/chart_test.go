package chart

import (
	"bytes"
	"strings"
	"testing"
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
