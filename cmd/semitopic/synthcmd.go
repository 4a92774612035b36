package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/semitopic/semitopic/synth"
)

func newSynthCmd() *cobra.Command {
	var preset, format, out string
	var c synth.Config
	cmd := &cobra.Command{
		Use:   "synth --out FILE",
		Short: "Write a synthetic corpus with planted topics and labels, of any size",
		Long: `synth draws a corpus from a generative model with planted topics — a Zipf
vocabulary, topics that each own a share of it, log-normal document lengths,
a main and a second topic per document — and labels a fraction of the
documents with their main topic's class. It streams: the corpus is never held
in memory, and a seed fixes it byte for byte.

Presets: nytimes (300,000 documents, 102,660 terms, shaped like the UCI
NYTimes corpus), pubmed (8,200,000 × 141,043, like UCI PubMed), small
(2,000 × 5,000). Flags override a preset's fields.

Formats: mtx (MatrixMarket, with vocab.txt and labels.txt beside it: read it
back with --format mtx), uci (docword.NAME.txt with vocab.NAME.txt; no
labels), jsonl (one document per line with its text and label), shards (a
folder of checksummed shards of rows with its vocabulary and labels, written
in one pass: read it back with --format shards).`,
		Example: `  semitopic synth --preset nytimes --out nyt/corpus.mtx
  semitopic synth --preset small --format jsonl --out small.jsonl
  semitopic synth --preset pubmed --format shards --out pubmed-shards
  semitopic synth --preset nytimes --terms 100000 --zipf 1.18 --out big/docword.syn.txt --format uci`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if out == "" {
				return fmt.Errorf("synth: --out is required")
			}
			base, err := synth.Preset(preset)
			if err != nil {
				return err
			}
			f := cmd.Flags()
			if f.Changed("docs") {
				base.Docs = c.Docs
			}
			if f.Changed("terms") {
				base.Terms = c.Terms
			}
			if f.Changed("topics") {
				base.Topics = c.Topics
			}
			if f.Changed("classes") {
				base.Classes = c.Classes
			}
			if f.Changed("labeled") {
				base.Labeled = c.Labeled
			}
			if f.Changed("mean-length") {
				base.MeanLength = c.MeanLength
			}
			if f.Changed("length-sigma") {
				base.LengthSigma = c.LengthSigma
			}
			if f.Changed("zipf") {
				base.Zipf = c.Zipf
			}
			if f.Changed("topic-share") {
				base.TopicShare = c.TopicShare
			}
			base.Seed = c.Seed
			if c.RowsPerShard < 0 {
				return fmt.Errorf("synth: --rows-per-shard %d: want a number ≥ 0", c.RowsPerShard)
			}
			base.RowsPerShard = c.RowsPerShard
			g, err := synth.New(base)
			if err != nil {
				return err
			}
			if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
				return err
			}
			if format == "shards" {
				if err := recoverShards(cmd, out); err != nil {
					return err
				}
			}
			t0 := time.Now()
			st, err := synth.Write(cmd.Context(), g, format, out)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%d documents × %d terms, %d non-zeros (%.1f per document), %d tokens, %d labeled; %s in %s\n",
				st.Docs, st.Terms, st.NNZ, float64(st.NNZ)/float64(st.Docs), st.Tokens, st.Labeled,
				strings.Join(st.Files, ", "), time.Since(t0).Round(time.Millisecond))
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&preset, "preset", "small", "shape of the corpus: "+strings.Join(synth.Presets, ", "))
	fl.StringVar(&format, "format", "mtx", "output format: "+strings.Join(synth.Formats, ", "))
	fl.StringVar(&out, "out", "", "file to write (uci: docword.NAME.txt; shards: a folder)")
	fl.IntVar(&c.Docs, "docs", 0, "documents (default: the preset's)")
	fl.IntVar(&c.Terms, "terms", 0, "vocabulary size (default: the preset's)")
	fl.IntVar(&c.Topics, "topics", 0, "planted topics (default: the preset's)")
	fl.IntVar(&c.Classes, "classes", 0, "label classes, the main topic mod classes (default: one per topic)")
	fl.Float64Var(&c.Labeled, "labeled", 0, "fraction of labeled documents (default: the preset's)")
	fl.Float64Var(&c.MeanLength, "mean-length", 0, "mean tokens per document (default: the preset's)")
	fl.Float64Var(&c.LengthSigma, "length-sigma", 0, "σ of the log-normal document length (default 0.75)")
	fl.Float64Var(&c.Zipf, "zipf", 0, "exponent of the vocabulary's rank-frequency law (default: the preset's, else 1.05)")
	fl.Float64Var(&c.TopicShare, "topic-share", 0, "share of tokens from the document's topics (default 0.5)")
	fl.Uint64Var(&c.Seed, "seed", 0, "random seed")
	fl.IntVar(&c.RowsPerShard, "rows-per-shard", 0, "shards format: documents per shard (default 65536)")
	return cmd
}
