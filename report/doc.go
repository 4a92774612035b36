// Package report writes a self-contained HTML page about a fitted model:
// per-topic bar charts of the top words (with purity for theme models), a
// topic size chart, a sample of the document-topic matrix as a heatmap,
// the topic-to-class matrix of models that have one (SSNMF), the total
// correlation per topic (CorEx), and — given labeled documents — the
// papers' evaluation figures. Charts are inline SVG; the page needs no
// network access and no script. Page and charts share one font stack,
// chart.FontFamily.
//
// The evaluation is computed on the documents given (Data), and the page
// says which and how many. A document with no term known to the model (a
// row of X without a non-zero) gets no label and no topic, whatever the
// model returns for it: it counts as an error in the accuracy, as a
// document of no topic in the other figures, and the page says how many
// there were.
package report
