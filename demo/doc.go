// Package demo provides semitopic's embedded demo corpus: a few hundred
// short documents sampled with a fixed seed from eight themes whose word
// lists were written for this project (themes.txt), about a third of them
// labeled, plus a few anchor words per theme. Because every document's
// planted themes are known, the demo shows at a glance whether a model finds
// them, and quick tests use it as a small realistic corpus.
package demo
