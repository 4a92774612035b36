package labtest

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/synth"
)

// SyntheticDocs draws a small corpus with planted topics (package synth)
// as text documents labeled with the given class names, so that a
// reproduction's pipeline — its text preset, split, fits and report — can
// be checked in seconds without the shared data. Document i's text is its
// terms (synth.TermName) each repeated as often as it occurs, and its one
// label is classes[c] for its main topic's class c; cfg.Classes is set to
// len(classes), every document is labeled, and cfg.Topics must be at least
// len(classes).
func SyntheticDocs(ctx context.Context, cfg synth.Config, classes []string) ([]corpus.Document, error) {
	if len(classes) == 0 {
		return nil, fmt.Errorf("synthetic documents: no class names")
	}
	cfg.Classes = len(classes)
	g, err := synth.New(cfg)
	if err != nil {
		return nil, err
	}
	docs := make([]corpus.Document, 0, cfg.Docs)
	var text strings.Builder
	err = g.Each(ctx, func(i int, d *synth.Doc) error {
		text.Reset()
		for p, t := range d.Terms {
			for range int(d.Counts[p]) {
				if text.Len() > 0 {
					text.WriteByte(' ')
				}
				text.WriteString(synth.TermName(int(t)))
			}
		}
		docs = append(docs, corpus.Document{ID: "synthetic/" + strconv.Itoa(i+1), Text: text.String(), Labels: []string{classes[d.Class]}})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return docs, nil
}
