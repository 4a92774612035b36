package choosek_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/semitopic/semitopic/choosek"
	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/model"
	"github.com/semitopic/semitopic/synth"
	"github.com/semitopic/semitopic/vectorize"
)

// Choose on a corpus of 600 documents drawn from 4 planted topics, written
// as text and read by the nmf kind's pipeline.
func ExampleChoose() {
	ctx := context.Background()
	g, _ := synth.New(synth.Config{Docs: 600, Terms: 1500, Topics: 4, MeanLength: 100, Seed: 1})
	var docs []corpus.Document
	g.Each(ctx, func(i int, d *synth.Doc) error {
		var b strings.Builder
		for p, term := range d.Terms {
			b.WriteString(strings.Repeat(synth.TermName(int(term))+" ", int(d.Counts[p])))
		}
		docs = append(docs, corpus.Document{ID: fmt.Sprint(i), Text: b.String()})
		return nil
	})
	p, _ := vectorize.PipelinePreset(model.DefaultPreset(model.KindNMF))
	_, res, err := p.FitTransform(ctx, docs)
	if err != nil {
		fmt.Println(err)
		return
	}
	ks, _ := choosek.ParseKs("2:8")
	r, err := choosek.Choose(ctx, res.X, res.Vocab, choosek.Config{Ks: ks, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("recommended k:", r.Best)
	// Output:
	// recommended k: 4
}
