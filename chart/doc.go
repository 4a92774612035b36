// Package chart draws the figures of semitopic's experiment write-ups and
// HTML reports — line charts with error bars, bar charts and heatmaps — as
// SVG or PNG, on top of gonum/plot. Charts are plain data; Render turns one
// into bytes.
//
// Fonts: text is laid out with the metrics of Liberation Sans (metrically
// compatible with Arial and Helvetica), which PNG output draws with. SVG
// output does not embed a font, so that it stays small enough to inline in
// an HTML page: its text names FontFamily, the stack the HTML report's page
// uses, so charts and page share one font, and each text keeps the width it
// was laid out with (textLength), so labels end where the layout put them
// whatever font the reader's browser picks.
package chart
