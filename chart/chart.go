package chart

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
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

// FontFamily is the CSS font stack SVG charts name for their text: the
// one the HTML report's page uses. It holds no double quote, so it can go
// into an attribute as it is.
const FontFamily = "system-ui, -apple-system, 'Segoe UI', sans-serif"

// layoutFamily is the family name, as the SVG canvas writes it, of the font
// text is measured (and PNG text drawn) with.
const layoutFamily = "Liberation Sans"

// textFont is the font of every text of a chart, at the given size.
func textFont(size vg.Length) font.Font {
	return font.Font{Typeface: "Liberation", Variant: "Sans", Size: size}
}

// useFont sets the font of every text style of p (keeping the sizes).
func useFont(p *plot.Plot) {
	for _, s := range []*text.Style{&p.Title.TextStyle, &p.X.Label.TextStyle, &p.Y.Label.TextStyle,
		&p.X.Tick.Label, &p.Y.Tick.Label, &p.Legend.TextStyle} {
		s.Font = textFont(s.Font.Size)
	}
}

// Chart is anything Render can draw.
type Chart interface {
	draw(dc draw.Canvas) error
}

// Size of a chart in centimetres; zero values take 16 × 10.
type Size struct{ Width, Height float64 }

// Render draws c in the given format and size.
func Render(c Chart, f Format, s Size) ([]byte, error) {
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
		cv := &svgCanvas{Canvas: vgsvg.NewWith(vgsvg.UseWH(w, h))}
		if err := c.draw(draw.New(cv)); err != nil {
			return nil, err
		}
		if _, err := cv.WriteTo(&buf); err != nil {
			return nil, err
		}
		return cv.fitText(buf.Bytes()), nil
	case PNG:
		cv := vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(144))}
		if err := c.draw(draw.New(cv)); err != nil {
			return nil, err
		}
		if _, err := cv.WriteTo(&buf); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("chart: unknown format %q (want svg or png)", f)
	}
	return buf.Bytes(), nil
}

// svgCanvas is the SVG canvas, noting the laid-out width of every text it
// writes.
type svgCanvas struct {
	*vgsvg.Canvas
	widths []vg.Length
}

// FillString implements vg.Canvas.
func (c *svgCanvas) FillString(f font.Face, pt vg.Point, s string) {
	c.widths = append(c.widths, f.Width(s))
	c.Canvas.FillString(f, pt, s)
}

// fitText makes the SVG's text name FontFamily and keep the width it was
// laid out with: each <text> gets a textLength (the browser scales its
// glyphs to it), so a label in the reader's font, wider or narrower than
// the layout font, still ends where the layout put its end — right-aligned
// labels never run into the plot.
func (c *svgCanvas) fitText(svg []byte) []byte {
	svg = bytes.ReplaceAll(svg, []byte("font-family:"+layoutFamily+";"), []byte("font-family:"+FontFamily+";"))
	tag := []byte("<text ")
	if bytes.Count(svg, tag) != len(c.widths) {
		return svg // not the canvas's own text elements: leave them alone
	}
	var out bytes.Buffer
	out.Grow(len(svg) + 48*len(c.widths))
	for _, w := range c.widths {
		i := bytes.Index(svg, tag)
		out.Write(svg[:i+len(tag)])
		svg = svg[i+len(tag):]
		if w > 0 {
			fmt.Fprintf(&out, `textLength="%.2f" lengthAdjust="spacingAndGlyphs" `, w.Points())
		}
	}
	out.Write(svg)
	return out.Bytes()
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
	// LogX draws the x axis on a logarithmic scale (x values must be
	// positive).
	LogX bool
}

func (c LineChart) draw(dc draw.Canvas) error { return drawPlot(c.plot, dc) }

// drawPlot draws the plot that build makes.
func drawPlot(build func() (*plot.Plot, error), dc draw.Canvas) error {
	p, err := build()
	if err != nil {
		return err
	}
	p.Draw(dc)
	return nil
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
	if c.LogX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = logTicks{}
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
	useFont(p)
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

func (c Bars) draw(dc draw.Canvas) error { return drawPlot(c.plot, dc) }

func (c Bars) plot() (*plot.Plot, error) {
	if len(c.Labels) != len(c.Values) {
		return nil, fmt.Errorf("chart: %d labels for %d bars", len(c.Labels), len(c.Values))
	}
	if len(c.Values) == 0 {
		return nil, fmt.Errorf("chart: no bars")
	}
	p := plot.New()
	useFont(p)
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

// logTicks marks 1, 2, 5, 10, 20, 50, … on a logarithmic axis, labelled
// with their plain values.
type logTicks struct{}

// Ticks implements plot.Ticker.
func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	var out []plot.Tick
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		for _, m := range []float64{1, 2, 5} {
			v := m * math.Pow(10, e)
			if v >= lo*(1-1e-9) && v <= hi*(1+1e-9) {
				out = append(out, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', -1, 64)})
			}
		}
	}
	return out
}
