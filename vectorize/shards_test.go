package vectorize

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/shard"
	"github.com/semitopic/semitopic/sparse"
)

// passLog records what WriteShards tells a PassProgress: the start and
// end of each pass, and its first document.
type passLog struct {
	events []string
}

func (l *passLog) StartPass(name string, total int) {
	l.events = append(l.events, fmt.Sprintf("start %s of %d", name, total))
}

func (l *passLog) Read(read, total int) {
	if read == 1 {
		l.events = append(l.events, fmt.Sprintf("read %d of %d", read, total))
	}
}

func (l *passLog) EndPass(read int, err error) {
	l.events = append(l.events, fmt.Sprintf("end %d, %v", read, err))
}

// writeJSONL writes docs as a JSON Lines corpus in dir.
func writeJSONL(t *testing.T, dir string, docs []corpus.Document) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	for _, d := range docs {
		rec := map[string]any{"id": d.ID, "text": d.Text, "labels": d.Labels}
		if d.Split != corpus.SplitNone {
			rec["split"] = d.Split.String()
		}
		if err := enc.Encode(rec); err != nil {
			t.Fatal(err)
		}
	}
	p := filepath.Join(dir, "docs.jsonl")
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// checkShards checks that the sharded corpus in dir holds x, vocab and the
// labels of docs, value for value.
func checkShards(t *testing.T, dir string, x *sparse.CSR, vocab []string, docs []corpus.Document) {
	t.Helper()
	gx, gv, gl, err := shard.ReadAll(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(gv, vocab) {
		t.Errorf("vocabulary %v, want %v", gv, vocab)
	}
	if gx.Rows != x.Rows || gx.Cols != x.Cols || !slices.Equal(gx.Indptr, x.Indptr) || !slices.Equal(gx.Indices, x.Indices) || !bitsEqual(gx.Data, x.Data) {
		t.Errorf("matrix %d×%d with %d entries, want %d×%d with %d, value for value", gx.Rows, gx.Cols, gx.NNZ(), x.Rows, x.Cols, x.NNZ())
	}
	if len(gl) != len(docs) {
		t.Fatalf("%d label lines for %d documents", len(gl), len(docs))
	}
	for i, d := range docs {
		if len(gl[i])+len(d.Labels) > 0 && !slices.Equal(gl[i], d.Labels) {
			t.Errorf("document %s: labels %v, want %v", d.ID, gl[i], d.Labels)
		}
	}
}

// TestWriteShardsText checks that the shards of a text corpus, streamed in
// two passes, hold what FitTransform gives in memory, with the split asked
// for only, the fitted vectorizer kept beside them, and the passes told to
// the progress.
func TestWriteShardsText(t *testing.T) {
	tmp := t.TempDir()
	docs := streamDocs(400)
	for i := range docs {
		docs[i].Split = corpus.SplitTrain
		if i%4 == 0 {
			docs[i].Split = corpus.SplitTest
		}
	}
	in := writeJSONL(t, tmp, docs)
	p := Pipeline{Text: DefaultPipeline().Text, Vectorize: Options{IDF: true, Norm: NormL2, MinTokens: 2, MinDF: Count(2)}}
	var train []corpus.Document
	for _, d := range docs {
		if d.Split == corpus.SplitTrain {
			train = append(train, d)
		}
	}
	_, want, err := p.FitTransform(context.Background(), train)
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Dropped) == 0 {
		t.Fatal("no document dropped: the test does not exercise the filters")
	}
	dir := filepath.Join(tmp, "shards")
	var log passLog
	var notes []string
	res, err := WriteShards(context.Background(), dir, &corpus.JSONL{}, in, p, ShardsOptions{
		RowsPerShard: 64, Split: corpus.SplitTrain, Progress: &log,
		Notes:    func(n []string) { notes = append(notes, n...) },
		InMemory: func(why string) { t.Errorf("read in memory: %s", why) },
	})
	if err != nil {
		t.Fatal(err)
	}
	checkShards(t, dir, want.X, want.Vocab, want.Docs)
	if res.Manifest.Docs != want.X.Rows || len(res.Manifest.Shards) != (want.X.Rows+63)/64 {
		t.Errorf("manifest: %d documents in %d shards, want %d in shards of 64", res.Manifest.Docs, len(res.Manifest.Shards), want.X.Rows)
	}
	if res.InMemory || res.Stream == nil || res.Stream.Dropped != len(want.Dropped) || res.Stream.FirstDropped[0].ID != want.Dropped[0].ID {
		t.Errorf("result: in memory %v, stream %+v; want %d dropped, the first %s", res.InMemory, res.Stream, len(want.Dropped), want.Dropped[0].ID)
	}
	b, err := os.ReadFile(filepath.Join(dir, shard.PipelineFile))
	if err != nil {
		t.Fatal(err)
	}
	v, err := UnmarshalFitted(b, want.Vocab)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(v.IDF(), res.Vectorizer.IDF()) || !slices.Equal(res.Vectorizer.Vocabulary(), want.Vocab) {
		t.Error("the pipeline file or the vectorizer returned is not the fitted vectorizer")
	}
	n := len(docs)
	wantLog := []string{
		"start pass 1/2, the vocabulary of -1", "read 1 of -1", fmt.Sprintf("end %d, <nil>", n),
		fmt.Sprintf("start pass 2/2, the rows of %d", n), fmt.Sprintf("read 1 of %d", n), fmt.Sprintf("end %d, <nil>", n),
	}
	if !slices.Equal(log.events, wantLog) {
		t.Errorf("progress:\n%s\nwant:\n%s", strings.Join(log.events, "\n"), strings.Join(wantLog, "\n"))
	}
	if notes != nil {
		t.Errorf("notes %q for a UTF-8 file", notes)
	}
}

// TestWriteShardsMatrix checks that an already-vectorized corpus is
// written in one pass as it is, and that a MatrixMarket file whose entries
// are not in row order, found out on the way, is read in memory with the
// same shards.
func TestWriteShardsMatrix(t *testing.T) {
	tmp := t.TempDir()
	files := map[string]string{
		"x.mtx":      "%%MatrixMarket matrix coordinate real general\n3 2 4\n1 1 1\n2 2 2\n1 2 3\n3 1 4\n",
		"vocab.txt":  "a\nb\n",
		"labels.txt": "x\n\ny,z\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(tmp, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c, err := corpus.MTX{}.Read(context.Background(), filepath.Join(tmp, "x.mtx"))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(tmp, "shards")
	var log passLog
	var why []string
	res, err := WriteShards(context.Background(), dir, corpus.MTX{}, filepath.Join(tmp, "x.mtx"), Pipeline{}, ShardsOptions{
		RowsPerShard: 2, Progress: &log, InMemory: func(w string) { why = append(why, w) },
	})
	if err != nil {
		t.Fatal(err)
	}
	checkShards(t, dir, c.Matrix.X, c.Matrix.Vocab, c.Docs)
	if len(why) != 1 || !strings.Contains(why[0], "not in row order") || !res.InMemory {
		t.Errorf("told %q, in memory %v: want the entries' order said once", why, res.InMemory)
	}
	if res.Vectorizer != nil || res.Stream != nil {
		t.Error("a vectorizer for an already-vectorized corpus")
	}
	if _, err := os.Stat(filepath.Join(dir, shard.PipelineFile)); err == nil {
		t.Error("a pipeline file for an already-vectorized corpus")
	}
	if len(log.events) != 6 || log.events[0] != "start writing the shards of -1" || !strings.Contains(log.events[2], "row order") || log.events[5] != "end 3, <nil>" {
		t.Errorf("progress: %q", log.events)
	}
}

// TestWriteShardsErrors checks the refusals: a split of a corpus without
// one, a bad line named by file and line, standard input read in memory,
// and that a failure leaves the target as it was.
func TestWriteShardsErrors(t *testing.T) {
	tmp := t.TempDir()
	ctx := context.Background()
	in := writeJSONL(t, tmp, streamDocs(50))
	dir := filepath.Join(tmp, "shards")
	if _, err := WriteShards(ctx, dir, corpus.JSONL{}, in, DefaultPipeline(), ShardsOptions{}); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(filepath.Join(dir, shard.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	_, err = WriteShards(ctx, dir, corpus.JSONL{}, in, DefaultPipeline(), ShardsOptions{Split: corpus.SplitTest})
	if !errors.Is(err, corpus.ErrNoSplit) || !strings.Contains(err.Error(), in+" has no train/test split") {
		t.Errorf("a split of a corpus without one: %v", err)
	}
	bad := filepath.Join(tmp, "bad.jsonl")
	lines := strings.Repeat(`{"text": "rockets and orbits"}`+"\n", 200) + `{"text": 7}` + "\n"
	if err := os.WriteFile(bad, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteShards(ctx, dir, corpus.JSONL{}, bad, DefaultPipeline(), ShardsOptions{RowsPerShard: 16}); err == nil || !strings.Contains(err.Error(), bad+":201:") {
		t.Errorf("a bad line: %v, want an error naming %s:201", err, bad)
	}
	after, err := os.ReadFile(filepath.Join(dir, shard.ManifestFile))
	if err != nil || !bytes.Equal(before, after) {
		t.Errorf("the failed writes changed %s (%v)", dir, err)
	}
	if err := writeShardsOverFile(t, filepath.Join(tmp, "file")); err == nil {
		t.Error("a file as the target is not refused")
	}

	// Standard input is read whole, with the same shards.
	b, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	var why string
	stdin := filepath.Join(tmp, "stdin")
	if _, err := WriteShards(ctx, stdin, corpus.JSONL{}, corpus.Stdin, DefaultPipeline(), ShardsOptions{
		Stdin: bytes.NewReader(b), InMemory: func(w string) { why = w },
	}); err != nil {
		t.Fatal(err)
	}
	if why != "standard input cannot be read twice" {
		t.Errorf("in memory because %q", why)
	}
	wx, wv, wl, _ := shard.ReadAll(dir)
	checkShards(t, stdin, wx, wv, labelDocs(wl))
}

// writeShardsOverFile tries to write shards over a file at path.
func writeShardsOverFile(t *testing.T, path string) error {
	t.Helper()
	if err := os.WriteFile(path, []byte("not a corpus"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := WriteShards(context.Background(), path, corpus.JSONL{}, "unused.jsonl", DefaultPipeline(), ShardsOptions{})
	return err
}

// labelDocs makes documents carrying labels.
func labelDocs(labels [][]string) []corpus.Document {
	docs := make([]corpus.Document, len(labels))
	for i, l := range labels {
		docs[i].Labels = l
	}
	return docs
}
