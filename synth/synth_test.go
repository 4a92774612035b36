package synth

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/text"
	"github.com/semitopic/semitopic/vectorize"
)

func small(t *testing.T) *Generator {
	t.Helper()
	c, err := Preset("small")
	if err != nil {
		t.Fatal(err)
	}
	c.Seed = 3
	g, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// The formats read back, through the corpus readers, as the documents
// drawn: same shape, counts and labels.
func TestWriteReadBack(t *testing.T) {
	ctx := context.Background()
	g := small(t)
	c := g.Config()
	dir := t.TempDir()
	st, err := Write(ctx, g, "mtx", filepath.Join(dir, "x.mtx"))
	if err != nil {
		t.Fatal(err)
	}
	mc, err := corpus.MTX{}.Read(ctx, filepath.Join(dir, "x.mtx"))
	if err != nil {
		t.Fatal(err)
	}
	x := mc.Matrix.X
	if x.Rows != c.Docs || x.Cols != c.Terms || x.NNZ() != st.NNZ {
		t.Fatalf("mtx: %d×%d with %d non-zeros, want %d×%d with %d", x.Rows, x.Cols, x.NNZ(), c.Docs, c.Terms, st.NNZ)
	}
	var d Doc
	labeled := 0
	for i := 0; i < c.Docs; i++ {
		g.Doc(i, &d)
		cols, vals := x.Row(i)
		for p, j := range cols {
			if j != d.Terms[p] || vals[p] != d.Counts[p] {
				t.Fatalf("mtx document %d differs from the draw", i)
			}
		}
		want := []string(nil)
		if d.Label >= 0 {
			want = []string{ClassName(d.Label)}
			labeled++
		}
		if !slices.Equal(mc.Docs[i].Labels, want) {
			t.Fatalf("document %d: labels %v, want %v", i, mc.Docs[i].Labels, want)
		}
	}
	if labeled != st.Labeled || labeled < c.Docs/10 || labeled > c.Docs*3/10 {
		t.Errorf("%d labeled documents (stats %d), want about %g of %d", labeled, st.Labeled, c.Labeled, c.Docs)
	}

	ust, err := Write(ctx, g, "uci", filepath.Join(dir, "docword.syn.txt"))
	if err != nil {
		t.Fatal(err)
	}
	uc, err := corpus.UCI{}.Read(ctx, filepath.Join(dir, "docword.syn.txt"))
	if err != nil {
		t.Fatal(err)
	}
	ux := uc.Matrix.X
	if !slices.Equal(ux.Indptr, x.Indptr) || !slices.Equal(ux.Indices, x.Indices) || !slices.Equal(ux.Data, x.Data) ||
		ust.NNZ != st.NNZ || !slices.Equal(uc.Matrix.Vocab, mc.Matrix.Vocab) {
		t.Error("uci corpus differs from the mtx one")
	}
	if _, err := Write(ctx, g, "uci", filepath.Join(dir, "syn.txt")); err == nil {
		t.Error("a uci file not named docword.NAME.txt was accepted")
	}

	sst, err := Write(ctx, g, "shards", filepath.Join(dir, "shards"))
	if err != nil {
		t.Fatal(err)
	}
	sc, err := corpus.Shards{}.Read(ctx, filepath.Join(dir, "shards"))
	if err != nil {
		t.Fatal(err)
	}
	sx := sc.Matrix.X
	if !slices.Equal(sx.Indptr, x.Indptr) || !slices.Equal(sx.Indices, x.Indices) || !slices.Equal(sx.Data, x.Data) ||
		sst.NNZ != st.NNZ || sst.Labeled != st.Labeled || !slices.Equal(sc.Matrix.Vocab, mc.Matrix.Vocab) {
		t.Error("the sharded corpus differs from the mtx one")
	}
	for i := range sc.Docs {
		if !slices.Equal(sc.Docs[i].Labels, mc.Docs[i].Labels) {
			t.Fatalf("sharded document %d: labels %v, mtx %v", i, sc.Docs[i].Labels, mc.Docs[i].Labels)
		}
	}

	jst, err := Write(ctx, g, "jsonl", filepath.Join(dir, "x.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	jc, err := corpus.JSONL{}.Read(ctx, filepath.Join(dir, "x.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(jc.Docs) != c.Docs || jst.Tokens != st.Tokens || jst.Labeled != st.Labeled {
		t.Fatalf("jsonl: %d documents, %d tokens, %d labeled", len(jc.Docs), jst.Tokens, jst.Labeled)
	}
	g.Doc(7, &d)
	if n := len(bytes.Fields([]byte(jc.Docs[7].Text))); n != d.Tokens {
		t.Errorf("jsonl document 7 has %d tokens, drawn %d", n, d.Tokens)
	}
	if _, err := Write(ctx, g, "csv", filepath.Join(dir, "x.csv")); err == nil {
		t.Error("unknown format accepted")
	}
}

// A seed fixes the corpus, byte for byte; another seed changes it.
func TestDeterministic(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	write := func(seed uint64, name string) []byte {
		c, _ := Preset("small")
		c.Docs, c.Seed = 300, seed
		g, err := New(c)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if _, err := Write(ctx, g, "jsonl", p); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	a, b, c := write(1, "a"), write(1, "b"), write(2, "c")
	if !bytes.Equal(a, b) {
		t.Error("the same seed wrote different corpora")
	}
	if bytes.Equal(a, c) {
		t.Error("different seeds wrote the same corpus")
	}
}

// The planted structure is there: a document's main topic's own terms
// carry at least the main topic's share of its tokens, far above their
// share of the vocabulary.
func TestPlantedTopics(t *testing.T) {
	g := small(t)
	c := g.Config()
	own := make([]map[int32]bool, c.Topics)
	for k, terms := range g.own {
		own[k] = map[int32]bool{}
		for _, v := range terms {
			own[k][v] = true
		}
	}
	var d Doc
	share := 0.0
	for i := 0; i < c.Docs; i++ {
		g.Doc(i, &d)
		in := 0.0
		for p, v := range d.Terms {
			if own[d.Topic][v] {
				in += d.Counts[p]
			}
		}
		share += in / float64(d.Tokens)
	}
	share /= float64(c.Docs)
	if want := 0.75 * c.TopicShare; share < want {
		t.Errorf("main topics carry %.3f of the tokens, want at least %.3f", share, want)
	}
}

func TestConfigErrors(t *testing.T) {
	for _, c := range []Config{
		{},
		{Docs: 10, Terms: 5, Topics: 6},
		{Docs: 10, Terms: 50, Topics: 5, Classes: 6},
		{Docs: 10, Terms: 50, Topics: 5, Labeled: 1.5},
		{Docs: 10, Terms: 50, Topics: 5, MeanLength: -1},
		{Docs: 10, Terms: 50, Topics: 5, TopicShare: 2},
	} {
		if _, err := New(c); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
	if _, err := Preset("nope"); err == nil {
		t.Error("unknown preset accepted")
	}
}

// Every term name is a word that the text pipelines keep as it is, so
// that the jsonl format reads back, with the default pipeline, to the
// documents drawn.
func TestTermNamesReadBack(t *testing.T) {
	def, err := text.NewAnalyzer(text.Default())
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for k := 0; k < PubMed().Terms; k++ {
		if k >= 20_000 { // then a sample, for speed
			k += 36
		}
		w := TermName(k)
		if seen[w] {
			t.Fatalf("term %d: name %q repeats", k, w)
		}
		seen[w] = true
		if got, err := def.Term(w); err != nil || got != w {
			t.Fatalf("term %d: the default pipeline reads %q as %q (%v)", k, w, got, err)
		}
	}
	equal := func(what, got, want string) {
		if got != want {
			t.Errorf("%s = %q, want %q", what, got, want)
		}
	}
	equal("TermName(0)", TermName(0), "wki")
	equal("TermName(20)", TermName(20), "wduki")
	for _, name := range vectorize.PipelinePresets() {
		p, _ := vectorize.PipelinePreset(name)
		a, err := text.NewAnalyzer(p.Text)
		if err != nil {
			t.Fatal(err)
		}
		for k := range 5000 {
			if w := TermName(k); strings.Join(a.Tokens(w), " ") != w {
				t.Fatalf("preset %s reads term %d, %q, as %q", name, k, w, a.Tokens(w))
			}
		}
	}
	// The jsonl corpus through the default pipeline: every document has
	// the terms drawn, and no other.
	ctx := context.Background()
	c, _ := Preset("small")
	c.Docs, c.Seed = 200, 9
	g, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := Write(ctx, g, "jsonl", filepath.Join(dir, "x.jsonl")); err != nil {
		t.Fatal(err)
	}
	jc, err := corpus.JSONL{}.Read(ctx, filepath.Join(dir, "x.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	v, err := vectorize.DefaultPipeline().New()
	if err != nil {
		t.Fatal(err)
	}
	res, err := v.FitTransform(ctx, jc.Docs)
	if err != nil {
		t.Fatalf("the default pipeline on synth's jsonl: %v", err)
	}
	var d Doc
	for i := range c.Docs {
		g.Doc(i, &d)
		cols, vals := res.X.Row(i)
		if len(cols) != len(d.Terms) {
			t.Fatalf("document %d: %d terms read back, %d drawn", i, len(cols), len(d.Terms))
		}
		for p, t0 := range d.Terms {
			j := slices.Index(res.Vocab, TermName(int(t0)))
			if k := slices.Index(cols, int32(j)); j < 0 || k < 0 || vals[k] == 0 {
				t.Fatalf("document %d: term %s drawn %v times, not read back", i, TermName(int(t0)), d.Counts[p])
			}
		}
	}
}
