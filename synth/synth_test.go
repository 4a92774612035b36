package synth

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/semitopic/semitopic/corpus"
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
