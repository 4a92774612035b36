// Package chart draws the figures of semitopic's experiment write-ups and
// HTML reports — line charts with error bars, bar charts and heatmaps — as
// SVG or PNG, on top of gonum/plot. Charts are plain data; Render turns one
// into bytes. SVG output refers to fonts by name instead of embedding them,
// so it stays small enough to inline in an HTML page.
package chart

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Format is an output format.
type Format string

// The output formats.
const (
	SVG Format = "svg"
	PNG Format = "png"
)

// Chart is anything Render can draw.
type Chart interface {
	plot() (*plot.Plot, error)
}

// Size of a chart in centimetres; zero values take 16 × 10.
type Size struct{ Width, Height float64 }

// Render draws c in the given format and size.
func Render(c Chart, f Format, s Size) ([]byte, error) {
	p, err := c.plot()
	if err != nil {
		return nil, err
	}
	if s.Width <= 0 {
		s.Width = 16
	}
	if s.Height <= 0 {
		s.Height = 10
	}
	w, h := vg.Length(s.Width)*vg.Centimeter, vg.Length(s.Height)*vg.Centimeter
	var buf bytes.Buffer
	switch f {
	case SVG:
		cv := vgsvg.NewWith(vgsvg.UseWH(w, h))
		p.Draw(draw.New(cv))
		if _, err := cv.WriteTo(&buf); err != nil {
			return nil, err
		}
	case PNG:
		cv := vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(144))}
		p.Draw(draw.New(cv))
		if _, err := cv.WriteTo(&buf); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("chart: unknown format %q (want svg or png)", f)
	}
	return buf.Bytes(), nil
}

// palette10 is a colour-blind-safe qualitative palette (Okabe–Ito plus
// greys), used in series order.
func seriesColor(i int) color.Color {
	cs := []color.RGBA{
		{0, 114, 178, 255}, {213, 94, 0, 255}, {0, 158, 115, 255}, {204, 121, 167, 255},
		{230, 159, 0, 255}, {86, 180, 233, 255}, {0, 0, 0, 255}, {240, 228, 66, 255},
		{120, 120, 120, 255}, {170, 170, 170, 255},
	}
	return cs[i%len(cs)]
}

// Series is one line of a LineChart. Err, when set, holds ± error bars.
type Series struct {
	Name    string
	X, Y    []float64
	Err     []float64
	Dashed  bool
	NoMarks bool
}

// LineChart plots series against a shared x axis.
type LineChart struct {
	Title, XLabel, YLabel string
	Series                []Series
	// YMin and YMax fix the y range when YMax > YMin.
	YMin, YMax float64
	// LegendLeft puts the legend at the top left instead of the top right.
	LegendLeft bool
}

func (c LineChart) plot() (*plot.Plot, error) {
	p := newPlot(c.Title, c.XLabel, c.YLabel)
	for i, s := range c.Series {
		if len(s.X) != len(s.Y) || (s.Err != nil && len(s.Err) != len(s.Y)) {
			return nil, fmt.Errorf("chart: series %q: %d x, %d y, %d errors", s.Name, len(s.X), len(s.Y), len(s.Err))
		}
		pts := make(plotter.XYs, len(s.X))
		for k := range s.X {
			pts[k] = plotter.XY{X: s.X[k], Y: s.Y[k]}
		}
		line, points, err := plotter.NewLinePoints(pts)
		if err != nil {
			return nil, fmt.Errorf("chart: series %q: %w", s.Name, err)
		}
		col := seriesColor(i)
		line.Color = col
		line.Width = vg.Points(1.5)
		if s.Dashed {
			line.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		}
		points.Color = col
		points.Shape = shapes(i)
		p.Add(line)
		if !s.NoMarks {
			p.Add(points)
		}
		p.Legend.Add(s.Name, line, points)
		if s.Err != nil {
			yerr := make(plotter.YErrors, len(s.Err))
			xyerr := struct {
				plotter.XYs
				plotter.YErrors
			}{pts, yerr}
			for k, e := range s.Err {
				yerr[k] = struct{ Low, High float64 }{e, e}
			}
			bars, err := plotter.NewYErrorBars(xyerr)
			if err != nil {
				return nil, fmt.Errorf("chart: series %q error bars: %w", s.Name, err)
			}
			bars.Color = col
			p.Add(bars)
		}
	}
	if c.YMax > c.YMin {
		p.Y.Min, p.Y.Max = c.YMin, c.YMax
	} else if len(c.Series) > 0 {
		// Headroom for the legend, drawn inside the top of the plot.
		p.Y.Max += 0.08 * float64(len(c.Series)+1) * (p.Y.Max - p.Y.Min)
	}
	p.Legend.Top = true
	p.Legend.Left = c.LegendLeft
	return p, nil
}

func shapes(i int) draw.GlyphDrawer {
	all := []draw.GlyphDrawer{draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.PlusGlyph{}, draw.CrossGlyph{}, draw.RingGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}}
	return all[i%len(all)]
}

func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.Add(plotter.NewGrid())
	return p
}

// Bars is a bar chart of labelled values, drawn horizontally (labels on
// the y axis, first label on top) when Horizontal is set.
type Bars struct {
	Title, ValueLabel string
	Labels            []string
	Values            []float64
	Horizontal        bool
	// Color of the bars; zero is the first series colour.
	Color color.Color
}

func (c Bars) plot() (*plot.Plot, error) {
	if len(c.Labels) != len(c.Values) {
		return nil, fmt.Errorf("chart: %d labels for %d bars", len(c.Labels), len(c.Values))
	}
	if len(c.Values) == 0 {
		return nil, fmt.Errorf("chart: no bars")
	}
	p := plot.New()
	p.Title.Text = c.Title
	vals := make(plotter.Values, len(c.Values))
	labels := make([]string, len(c.Labels))
	n := len(c.Values)
	for i, v := range c.Values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("chart: bar %q has value %v", c.Labels[i], v)
		}
		if c.Horizontal { // first label on top
			vals[n-1-i], labels[n-1-i] = v, c.Labels[i]
		} else {
			vals[i], labels[i] = v, c.Labels[i]
		}
	}
	bars, err := plotter.NewBarChart(vals, vg.Points(10))
	if err != nil {
		return nil, err
	}
	bars.Color = c.Color
	if bars.Color == nil {
		bars.Color = seriesColor(0)
	}
	bars.LineStyle.Width = 0
	bars.Horizontal = c.Horizontal
	p.Add(bars)
	if c.Horizontal {
		p.NominalY(labels...)
		p.X.Label.Text = c.ValueLabel
		p.X.Min = math.Min(0, p.X.Min)
	} else {
		p.NominalX(labels...)
		p.Y.Label.Text = c.ValueLabel
		p.Y.Min = math.Min(0, p.Y.Min)
	}
	return p, nil
}

// Heatmap draws a matrix of values with row and column labels; row 0 is
// at the top.
type Heatmap struct {
	Title                string
	RowLabels, ColLabels []string
	XLabel, YLabel       string
	Values               [][]float64
}

type grid struct {
	v          [][]float64
	rows, cols int
}

func (g grid) Dims() (c, r int)   { return g.cols, g.rows }
func (g grid) Z(c, r int) float64 { return g.v[g.rows-1-r][c] }
func (g grid) X(c int) float64    { return float64(c) }
func (g grid) Y(r int) float64    { return float64(r) }

func (c Heatmap) plot() (*plot.Plot, error) {
	rows := len(c.Values)
	if rows == 0 || len(c.Values[0]) == 0 {
		return nil, fmt.Errorf("chart: empty heatmap")
	}
	cols := len(c.Values[0])
	for i, r := range c.Values {
		if len(r) != cols {
			return nil, fmt.Errorf("chart: heatmap row %d has %d values, want %d", i, len(r), cols)
		}
	}
	if len(c.RowLabels) != rows || len(c.ColLabels) != cols {
		return nil, fmt.Errorf("chart: %d×%d heatmap with %d row and %d column labels", rows, cols, len(c.RowLabels), len(c.ColLabels))
	}
	pal := blues(64)
	h := plotter.NewHeatMap(grid{c.Values, rows, cols}, pal)
	p := plot.New()
	p.Title.Text = c.Title
	p.X.Label.Text = c.XLabel
	p.Y.Label.Text = c.YLabel
	p.Add(h)
	rl := make([]string, rows)
	for i := range rl {
		rl[i] = c.RowLabels[rows-1-i]
	}
	p.NominalX(c.ColLabels...)
	p.NominalY(rl...)
	p.X.Tick.Label.Rotation = 0
	lo, hi := h.Min, h.Max
	if rows*cols > 300 {
		// Too many cells to print values: a colour scale legend instead.
		p.Legend.Add(fmt.Sprintf("%.3g", lo), colorThumb{pal.Colors()[0]})
		p.Legend.Add(fmt.Sprintf("%.3g", hi), colorThumb{pal.Colors()[len(pal.Colors())-1]})
		p.Legend.Top = true
	} else {
		// Print each cell's value, dark on light cells and light on dark.
		var light, dark plotter.XYLabels
		for r := 0; r < rows; r++ {
			for k := 0; k < cols; k++ {
				v := c.Values[r][k]
				xy := plotter.XY{X: float64(k), Y: float64(rows - 1 - r)}
				frac := 0.0
				if hi > lo {
					frac = (v - lo) / (hi - lo)
				}
				if frac > 0.55 {
					light.XYs = append(light.XYs, xy)
					light.Labels = append(light.Labels, fmt.Sprintf("%.2g", v))
				} else {
					dark.XYs = append(dark.XYs, xy)
					dark.Labels = append(dark.Labels, fmt.Sprintf("%.2g", v))
				}
			}
		}
		for i, set := range []plotter.XYLabels{dark, light} {
			if len(set.XYs) == 0 {
				continue
			}
			l, err := plotter.NewLabels(set)
			if err != nil {
				return nil, err
			}
			for j := range l.TextStyle {
				l.TextStyle[j].XAlign = draw.XCenter
				l.TextStyle[j].YAlign = draw.YCenter
				if i == 1 {
					l.TextStyle[j].Color = color.White
				}
			}
			p.Add(l)
		}
	}
	return p, nil
}

// blues is a sequential palette from near-white to dark blue.
type bluePalette []color.Color

func (b bluePalette) Colors() []color.Color { return b }

func blues(n int) palette.Palette {
	cs := make(bluePalette, n)
	for i := range cs {
		t := float64(i) / float64(n-1)
		cs[i] = color.RGBA{
			R: uint8(247 - t*(247-8)),
			G: uint8(251 - t*(251-48)),
			B: uint8(255 - t*(255-107)),
			A: 255,
		}
	}
	return cs
}

type colorThumb struct{ c color.Color }

func (t colorThumb) Thumbnail(c *draw.Canvas) {
	pts := []vg.Point{{X: c.Min.X, Y: c.Min.Y}, {X: c.Min.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Min.Y}}
	poly := c.ClipPolygonY(pts)
	c.FillPolygon(t.c, poly)
}

// Slug turns a title into a file-name-friendly string.
func Slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if 'a' <= r && r <= 'z' || '0' <= r && r <= '9' {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}
