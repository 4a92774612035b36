package chart_test

import (
	"bytes"
	"fmt"
	"log"
	"regexp"

	"github.com/semitopic/semitopic/chart"
)

// svgSize and svgText pick the page size and the texts out of an SVG chart.
var (
	svgSize = regexp.MustCompile(`<svg width="([^"]+)" height="([^"]+)"`)
	svgText = regexp.MustCompile(`<text [^>]*>([^<]*)</text>`)
)

// Draw a horizontal bar chart, as the HTML report does for topic sizes, and
// list what it writes: an SVG document 8 × 5 cm large (in points) with the
// title, the value axis's tick labels and the bar labels as text.
func ExampleRender() {
	c := chart.Bars{
		Title:      "Topic sizes",
		Labels:     []string{"space", "cooking"},
		Values:     []float64{0.4, 0.6},
		Horizontal: true,
	}
	svg, err := chart.Render(c, chart.SVG, chart.Size{Width: 8, Height: 5})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("XML:", bytes.HasPrefix(svg, []byte("<?xml")))
	m := svgSize.FindSubmatch(svg)
	fmt.Printf("size: %s × %s\n", m[1], m[2])
	for _, t := range svgText.FindAllSubmatch(svg, -1) {
		fmt.Printf("%q\n", t[1])
	}
	// Output:
	// XML: true
	// size: 226.77pt × 141.73pt
	// "Topic sizes"
	// "0.00"
	// "0.25"
	// "0.50"
	// "cooking"
	// "space"
}

// A line chart with error bars, one series dashed, as the experiment
// write-ups draw them; PNG output starts with the PNG signature.
func ExampleLineChart() {
	c := chart.LineChart{
		Title:  "Accuracy by labeled share",
		XLabel: "labeled documents (%)",
		YLabel: "accuracy",
		Series: []chart.Series{
			{Name: "TS-NMF", X: []float64{1, 10, 100}, Y: []float64{0.52, 0.71, 0.83}, Err: []float64{0.05, 0.02, 0.01}},
			{Name: "linear SVM", X: []float64{1, 10, 100}, Y: []float64{0.40, 0.68, 0.86}, Dashed: true},
		},
		YMin: 0, YMax: 1,
		LogX: true,
	}
	svg, err := chart.Render(c, chart.SVG, chart.Size{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("SVG names both series:", bytes.Contains(svg, []byte(">TS-NMF<")) && bytes.Contains(svg, []byte(">linear SVM<")))
	png, err := chart.Render(c, chart.PNG, chart.Size{Width: 8, Height: 5})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("PNG signature:", bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")))
	// Output:
	// SVG names both series: true
	// PNG signature: true
}

// FitSize chooses a size at which every cell of a heatmap is 1 cm square
// and every label has room; Render draws the heatmap at that size.
func ExampleHeatmap_FitSize() {
	h := chart.Heatmap{
		Title:     "Topics and classes",
		RowLabels: []string{"space", "cooking"},
		ColLabels: []string{"topic 1", "topic 2", "topic 3"},
		XLabel:    "topic",
		YLabel:    "class",
		Values:    [][]float64{{0.9, 0, 0.1}, {0, 0.8, 0.2}},
	}
	size, err := h.FitSize(1, 16)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%.1f × %.1f cm\n", size.Width, size.Height)
	svg, err := chart.Render(h, chart.SVG, size)
	if err != nil {
		log.Fatal(err)
	}
	// Six cells, few enough that each prints its value.
	fmt.Println("prints 0.90:", bytes.Contains(svg, []byte(">0.90<")))
	// Output:
	// 5.1 × 4.2 cm
	// prints 0.90: true
}
