package chart

import (
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Heatmap draws a matrix of values with row and column labels; row 0 is
// at the top.
//
// Small matrices (at most 300 cells) print each cell's value when it fits
// its cell and HideValues is not set; others get a colour scale to the
// right of the plot, outside the cells. Column
// labels are written across when they fit their column, else turned to run
// upwards; when even turned labels would overlap, only every n-th label is
// written (likewise for rows). FitSize gives a size that leaves every
// label room.
type Heatmap struct {
	Title                string
	RowLabels, ColLabels []string
	XLabel, YLabel       string
	// ScaleLabel captions the colour scale (optional).
	ScaleLabel string
	// HideValues draws the colour scale instead of printing the values,
	// however few the cells.
	HideValues bool
	Values     [][]float64
}

// maxValueCells is the most cells whose values are printed.
const maxValueCells = 300

type grid struct {
	v          [][]float64
	rows, cols int
}

func (g grid) Dims() (c, r int)   { return g.cols, g.rows }
func (g grid) Z(c, r int) float64 { return g.v[g.rows-1-r][c] }
func (g grid) X(c int) float64    { return float64(c) }
func (g grid) Y(r int) float64    { return float64(r) }

func (c Heatmap) check() (rows, cols int, err error) {
	rows = len(c.Values)
	if rows == 0 || len(c.Values[0]) == 0 {
		return 0, 0, fmt.Errorf("chart: empty heatmap")
	}
	cols = len(c.Values[0])
	for i, r := range c.Values {
		if len(r) != cols {
			return 0, 0, fmt.Errorf("chart: heatmap row %d has %d values, want %d", i, len(r), cols)
		}
	}
	if len(c.RowLabels) != rows || len(c.ColLabels) != cols {
		return 0, 0, fmt.Errorf("chart: %d×%d heatmap with %d row and %d column labels", rows, cols, len(c.RowLabels), len(c.ColLabels))
	}
	return rows, cols, nil
}

// scaleStyle is the text style of the colour scale's labels.
func scaleStyle(p *plot.Plot) text.Style {
	sty := p.Y.Tick.Label
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YCenter
	return sty
}

// scale layout, in points.
const (
	scaleGap  = vg.Length(10) // between the plot and the bar
	scaleBar  = vg.Length(10) // bar width
	scaleTick = vg.Length(4)  // between the bar and its labels
)

// scaleWidth is the width of the colour scale strip.
func (c Heatmap) scaleWidth(p *plot.Plot, labels []string) vg.Length {
	sty := scaleStyle(p)
	w := vg.Length(0)
	for _, l := range labels {
		w = max(w, sty.Width(l))
	}
	w += scaleGap + scaleBar + scaleTick + 4
	if c.ScaleLabel != "" {
		w += p.Y.Label.TextStyle.Height(c.ScaleLabel) + 4
	}
	return w
}

// base builds the plot without its tick marks: the cells, titles and fonts.
func (c Heatmap) base(rows, cols int) (p *plot.Plot, h *plotter.HeatMap, err error) {
	pal := blues(64)
	h = plotter.NewHeatMap(grid{c.Values, rows, cols}, pal)
	if math.IsInf(h.Min, 0) || math.IsInf(h.Max, 0) {
		return nil, nil, fmt.Errorf("chart: heatmap %q has no finite value", c.Title)
	}
	if h.Max == h.Min { // one colour for all; keep the palette scaling finite
		h.Max = h.Min + 1
	}
	p = plot.New()
	useFont(p)
	// The title is drawn by drawTitle, not by the plot.
	p.X.Label.Text = c.XLabel
	p.Y.Label.Text = c.YLabel
	p.Add(h)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Tick.Width, a.Tick.Length, a.Width = 0, 0, 0
		a.Padding = vg.Points(2)
	}
	return p, h, nil
}

// mayPrintValues is whether the values are printed in cells large enough.
func (c Heatmap) mayPrintValues(rows, cols int) bool {
	return !c.HideValues && rows*cols <= maxValueCells
}

// valueBox is the room, in points, the widest printed value needs.
func (c Heatmap) valueBox(lo, hi float64) (w, h vg.Length) {
	sty := text.Style{Font: textFont(plotter.DefaultFontSize), Handler: plot.DefaultTextHandler}
	f := formatter(lo, hi)
	for _, r := range c.Values {
		for _, v := range r {
			if !math.IsNaN(v) {
				w = max(w, sty.Width(f(v)))
			}
		}
	}
	return w + 4, lineHeight(sty) + 2
}

// addValues prints each cell's value, dark on light cells and light on dark.
func (c Heatmap) addValues(p *plot.Plot, rows, cols int, lo, hi float64) error {
	var light, dark plotter.XYLabels
	valueLabel := formatter(lo, hi)
	for r := 0; r < rows; r++ {
		for k := 0; k < cols; k++ {
			v := c.Values[r][k]
			if math.IsNaN(v) {
				continue
			}
			xy := plotter.XY{X: float64(k), Y: float64(rows - 1 - r)}
			frac := (v - lo) / (hi - lo)
			if frac > 0.55 {
				light.XYs = append(light.XYs, xy)
				light.Labels = append(light.Labels, valueLabel(v))
			} else {
				dark.XYs = append(dark.XYs, xy)
				dark.Labels = append(dark.Labels, valueLabel(v))
			}
		}
	}
	for i, set := range []plotter.XYLabels{dark, light} {
		if len(set.XYs) == 0 {
			continue
		}
		l, err := plotter.NewLabels(set)
		if err != nil {
			return err
		}
		for j := range l.TextStyle {
			l.TextStyle[j].Font = textFont(l.TextStyle[j].Font.Size)
			l.TextStyle[j].XAlign = draw.XCenter
			l.TextStyle[j].YAlign = draw.YCenter
			if i == 1 {
				l.TextStyle[j].Color = color.White
			}
		}
		p.Add(l)
	}
	return nil
}

// scaleLabels are the values written beside the colour scale: low,
// middle and high, to two significant digits of the range (so a low end
// of 7.6e-06 beside 0.85 reads 0.00).
func scaleLabels(lo, hi float64) []string {
	f := formatter(lo, hi)
	return []string{f(lo), f((lo + hi) / 2), f(hi)}
}

// formatter writes numbers between lo and hi with the decimals that give
// two significant digits of the range, so that they line up and a 6e-114
// among values near 1 reads 0.00.
func formatter(lo, hi float64) func(float64) string {
	dec := 0
	if span := hi - lo; span > 0 && !math.IsInf(span, 0) {
		dec = min(12, max(0, 1-int(math.Floor(math.Log10(span)))))
	}
	return func(v float64) string {
		s := strconv.FormatFloat(v, 'f', dec, 64)
		if strings.Trim(s, "-0.") == "" {
			s = strings.TrimPrefix(s, "-") // no "-0.00"
		}
		return s
	}
}

// upright turns a tick label style to run upwards, its end at the axis.
func upright(sty *text.Style) {
	sty.Rotation = math.Pi / 2
	sty.XAlign, sty.YAlign = draw.XRight, draw.YCenter
}

// maxWidth is the width of the widest of labels in sty.
func maxWidth(sty text.Style, labels []string) vg.Length {
	w := vg.Length(0)
	for _, l := range labels {
		w = max(w, sty.Width(l))
	}
	return w
}

// lineHeight is the height of one line of text in sty.
func lineHeight(sty text.Style) vg.Length {
	e := sty.FontExtents()
	return e.Ascent + e.Descent
}

// every is the label step that keeps labels of the given thickness from
// overlapping in cells of the given size: 1 for every label.
func every(thickness, cell vg.Length) int {
	need := 1.1 * thickness
	if cell <= 0 {
		return 1
	}
	return max(1, int(math.Ceil(float64(need/cell))))
}

// nominalTicks are ticks at 0, 1, … labelled with labels, only every step-th
// label written (counting from first).
func nominalTicks(labels []string, step, first int) plot.ConstantTicks {
	ticks := make([]plot.Tick, len(labels))
	for i, l := range labels {
		ticks[i] = plot.Tick{Value: float64(i)}
		if (i-first)%step == 0 {
			ticks[i].Label = l
		}
	}
	return ticks
}

// heatLayout is how a heatmap is laid out on a canvas.
type heatLayout struct {
	p           *plot.Plot
	h           *plotter.HeatMap
	title       func(area draw.Canvas)
	fig         draw.Canvas // the figure: all but the outer margin and the title
	area        draw.Canvas // the plot: cells, labels and axis titles
	cells       draw.Canvas // the cells
	printValues bool
	colStep     int // every colStep-th column label is written
	rowStep     int // every rowStep-th row label is written
	upright     bool
	scale       []string // the colour scale's labels (none when values are printed)
	scaleX      vg.Length
}

func (c Heatmap) layout(dc draw.Canvas) (*heatLayout, error) {
	rows, cols, err := c.check()
	if err != nil {
		return nil, err
	}
	p, h, err := c.base(rows, cols)
	if err != nil {
		return nil, err
	}
	l := &heatLayout{p: p, h: h, colStep: 1, rowStep: 1}
	// A little room above the title and right of the figure.
	dc = draw.Crop(dc, 0, -vg.Points(4), 0, -vg.Points(4))
	l.fig, l.title = c.titleRoom(p, dc)
	l.area = l.fig
	if c.mayPrintValues(rows, cols) {
		// Print the values when they fit the cells (measured with upright
		// column labels, which take the least width, as FitSize does).
		p.X.Tick.Marker = nominalTicks(c.ColLabels, 1, 0)
		p.Y.Tick.Marker = nominalTicks(c.RowLabels, 1, 0)
		across := p.X.Tick.Label
		upright(&p.X.Tick.Label)
		dataC := p.DataCanvas(l.area)
		p.X.Tick.Label = across
		vw, vh := c.valueBox(h.Min, h.Max)
		const slack = 0.5 // points, for rounding
		l.printValues = vw <= (dataC.Max.X-dataC.Min.X)/vg.Length(cols)+slack && vh <= (dataC.Max.Y-dataC.Min.Y)/vg.Length(rows)+slack
	}
	if l.printValues {
		if err := c.addValues(p, rows, cols, h.Min, h.Max); err != nil {
			return nil, err
		}
	} else {
		l.scale = scaleLabels(h.Min, h.Max)
		l.area = draw.Crop(l.fig, 0, -c.scaleWidth(p, l.scale), 0, 0)
		l.scaleX = l.area.Max.X + scaleGap
	}
	// Rows bottom-up, as the plot counts them.
	rl := make([]string, rows)
	for i := range rl {
		rl[i] = c.RowLabels[rows-1-i]
	}
	// Columns: the data width does not depend on the x axis, so decide
	// how to write the column labels first.
	p.X.Tick.Marker = nominalTicks(c.ColLabels, 1, 0)
	p.Y.Tick.Marker = nominalTicks(rl, 1, 0)
	dataC := p.DataCanvas(l.area)
	cellW := (dataC.Max.X - dataC.Min.X) / vg.Length(cols)
	xs := &p.X.Tick.Label
	if maxWidth(*xs, c.ColLabels) > 0.9*cellW {
		upright(xs)
		l.upright = true
		l.colStep = every(lineHeight(*xs), cellW)
		p.X.Tick.Marker = nominalTicks(c.ColLabels, l.colStep, 0)
	}
	// Rows: thin the labels when the cells are lower than a line; the top
	// row keeps its label.
	dataC = p.DataCanvas(l.area)
	cellH := (dataC.Max.Y - dataC.Min.Y) / vg.Length(rows)
	if l.rowStep = every(lineHeight(p.Y.Tick.Label), cellH); l.rowStep > 1 {
		p.Y.Tick.Marker = nominalTicks(rl, l.rowStep, (rows-1)%l.rowStep)
	}
	l.cells = p.DataCanvas(l.area)
	return l, nil
}

func (c Heatmap) draw(dc draw.Canvas) error {
	l, err := c.layout(dc)
	if err != nil {
		return err
	}
	l.p.Draw(l.area)
	l.title(l.area)
	if l.scale != nil {
		c.drawScale(l.p, l.cells, l.scaleX, l.fig, l.scale)
	}
	return nil
}

// titleHeight is the height the title takes, padding included.
func (c Heatmap) titleHeight(p *plot.Plot) vg.Length {
	if c.Title == "" {
		return 0
	}
	return p.Title.TextStyle.Rectangle(c.Title).Size().Y + p.Title.Padding
}

// titleRoom takes the title's room off the top of dc and returns the rest
// and the function that draws the title: centred over the plot area it is
// given, moved sideways as needed to stay whole on the figure (the colour
// scale's strip included).
func (c Heatmap) titleRoom(p *plot.Plot, dc draw.Canvas) (draw.Canvas, func(area draw.Canvas)) {
	if c.Title == "" {
		return dc, func(draw.Canvas) {}
	}
	full := dc
	sty := p.Title.TextStyle
	rest := dc
	rest.Max.Y -= c.titleHeight(p)
	return rest, func(area draw.Canvas) {
		half := sty.Width(c.Title) / 2
		x := (area.Min.X + area.Max.X) / 2
		x = max(min(x, full.Max.X-half), full.Min.X+half)
		full.FillText(sty, vg.Point{X: x, Y: full.Max.Y + sty.FontExtents().Descent}, c.Title)
	}
}

// drawScale draws the colour scale as a vertical bar beside the cells, from
// x0 on, with the low, middle and high values and the caption.
func (c Heatmap) drawScale(p *plot.Plot, dataC draw.Canvas, x0 vg.Length, dc draw.Canvas, labels []string) {
	pal := blues(64).Colors()
	y0, y1 := dataC.Min.Y, dataC.Max.Y
	n := len(pal)
	step := (y1 - y0) / vg.Length(n)
	for i, col := range pal {
		lo := y0 + vg.Length(i)*step
		hi := min(y1, lo+step+0.5) // overlap a little: no hairline gaps
		dc.FillPolygon(col, []vg.Point{{X: x0, Y: lo}, {X: x0 + scaleBar, Y: lo}, {X: x0 + scaleBar, Y: hi}, {X: x0, Y: hi}})
	}
	edge := draw.LineStyle{Color: color.Gray{Y: 150}, Width: vg.Points(0.5)}
	dc.StrokeLines(edge, []vg.Point{{X: x0, Y: y0}, {X: x0 + scaleBar, Y: y0}, {X: x0 + scaleBar, Y: y1}, {X: x0, Y: y1}, {X: x0, Y: y0}})
	sty := scaleStyle(p)
	lx := x0 + scaleBar + scaleTick
	for i, l := range labels {
		y := y0 + (y1-y0)*vg.Length(i)/vg.Length(len(labels)-1)
		dc.StrokeLine2(edge, x0+scaleBar, y, lx-1, y)
		dc.FillText(sty, vg.Point{X: lx, Y: y}, l)
	}
	if c.ScaleLabel != "" {
		cs := p.Y.Label.TextStyle
		cs.Rotation = -math.Pi / 2
		cs.XAlign, cs.YAlign = draw.XCenter, draw.YBottom // reads downwards, right of cx
		cx := lx + maxWidth(sty, labels) + 4
		dc.FillText(cs, vg.Point{X: cx, Y: (y0 + y1) / 2}, c.ScaleLabel)
	}
}

// FitSize is a size for the heatmap at which its cells are cell centimetres
// wide and high and every row and column label has room: column labels
// are turned upright when wider than a cell. The width is at most
// maxCm centimetres (when positive); columns narrow to fit it, and Render
// then writes only every n-th column label if they would overlap.
func (c Heatmap) FitSize(cell, maxCm float64) (Size, error) {
	rows, cols, err := c.check()
	if err != nil {
		return Size{}, err
	}
	p, h, err := c.base(rows, cols)
	if err != nil {
		return Size{}, err
	}
	p.X.Tick.Marker = nominalTicks(c.ColLabels, 1, 0)
	p.Y.Tick.Marker = nominalTicks(c.RowLabels, 1, 0)
	// margins measures the room around the cells (and the 4 points Render
	// keeps free above and to the right) by laying the plot out on a large
	// canvas.
	margins := func() (w, h vg.Length) {
		const big = vg.Length(1e5)
		d := p.DataCanvas(draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: big, Y: big}}})
		return big - (d.Max.X - d.Min.X) + 4, big - (d.Max.Y - d.Min.Y) + 4
	}
	fixedW, _ := margins()
	cellW := vg.Length(cell) * vg.Centimeter
	cellH := cellW
	maxW := vg.Length(math.Inf(1))
	if maxCm > 0 {
		maxW = vg.Length(maxCm) * vg.Centimeter
	}
	scale := c.scaleWidth(p, scaleLabels(h.Min, h.Max))
	if vw, vh := c.valueBox(h.Min, h.Max); c.mayPrintValues(rows, cols) && fixedW+vg.Length(cols)*max(cellW, vw) <= maxW {
		// Cells that hold the values; no colour scale.
		cellW, cellH, scale = max(cellW, vw), max(cellH, vh), 0
	}
	if fixedW+scale+vg.Length(cols)*cellW > maxW {
		cellW = max(vg.Points(1), (maxW-fixedW-scale)/vg.Length(cols))
	}
	if maxWidth(p.X.Tick.Label, c.ColLabels) > 0.9*cellW {
		upright(&p.X.Tick.Label)
	}
	_, fixedH := margins()
	w := fixedW + scale + vg.Length(cols)*cellW
	if c.Title != "" { // the title is written whole
		w = max(w, min(maxW, p.Title.TextStyle.Width(c.Title)+8))
	}
	hgt := fixedH + c.titleHeight(p) + vg.Length(rows)*cellH
	return Size{Width: float64(w / vg.Centimeter), Height: float64(hgt / vg.Centimeter)}, nil
}
