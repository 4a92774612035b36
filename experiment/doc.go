// Package experiment reproduces the papers' tables and figures on the real
// corpora: each Experiment reads the shared data, runs the models with the
// papers' protocols and writes a Markdown report with tables, charts and the
// exact command under docs/results/. The command "semitopic experiment NAME"
// runs one. Each paper's reproduction is a sub-package (tsnmfreuters,
// themenmf, ssnmfrepro, corex20ng, and labelefficiency, the benchmark with
// few labels), on what package lab gives them all.
package experiment
