package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/shard"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/vectorize"
)

// inMemoryShards writes the shards of the corpus that args describe (the
// reader and pipeline flags of vectorize, and PATH) the way vectorize
// --shards wrote them before it streamed: the corpus read and vectorized
// in memory (the path --out still takes), then written row by row.
func inMemoryShards(t *testing.T, dir string, rowsPerShard int, args ...string) {
	t.Helper()
	var rf readerFlags
	var pf pipelineFlags
	var (
		x     *sparse.CSR
		vocab []string
		docs  []corpus.Document
		vec   *vectorize.Vectorizer
	)
	cmd := &cobra.Command{Use: "ref", Args: cobra.ExactArgs(1), SilenceUsage: true, SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) (err error) {
			x, vocab, docs, vec, err = vectorized(cmd, &rf, &pf, args[0])
			return err
		}}
	rf.register(cmd.Flags(), false)
	pf.register(cmd.Flags())
	cmd.SetArgs(args)
	cmd.SetOut(&bytes.Buffer{})
	cmd.SetErr(&bytes.Buffer{})
	if err := cmd.ExecuteContext(context.Background()); err != nil {
		t.Fatalf("in-memory reference %v: %v", args, err)
	}
	var pipeline []byte
	if vec != nil {
		var err error
		if pipeline, err = vec.MarshalFitted(); err != nil {
			t.Fatal(err)
		}
	}
	w, err := shard.Create(dir, x.Cols, shard.Options{RowsPerShard: rowsPerShard, Vocab: vocab, Labels: true, Pipeline: pipeline})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < x.Rows; i++ {
		c, v := x.Row(i)
		if err := w.Add(c, v, docs[i].Labels); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// sameShards checks that two sharded corpora are equal: the same files
// with the same bytes, and (said in its terms when they differ) the same
// matrix, vocabulary and labels.
func sameShards(t *testing.T, got, want string) {
	t.Helper()
	gx, gv, gl, err := shard.ReadAll(got)
	if err != nil {
		t.Fatal(err)
	}
	wx, wv, wl, err := shard.ReadAll(want)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(gv, wv) {
		t.Errorf("vocabulary %v, want %v", gv, wv)
	}
	if fmt.Sprint(gl) != fmt.Sprint(wl) {
		t.Errorf("labels %v, want %v", gl, wl)
	}
	bits := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }
	if gx.Rows != wx.Rows || gx.Cols != wx.Cols || !slices.Equal(gx.Indptr, wx.Indptr) || !slices.Equal(gx.Indices, wx.Indices) || !slices.EqualFunc(gx.Data, wx.Data, bits) {
		t.Errorf("matrix %d×%d with %d entries differs from the in-memory %d×%d with %d", gx.Rows, gx.Cols, gx.NNZ(), wx.Rows, wx.Cols, wx.NNZ())
	}
	gf, wf := folderFiles(t, got), folderFiles(t, want)
	if !slices.Equal(gf, wf) {
		t.Fatalf("files %v, want %v", gf, wf)
	}
	for _, f := range gf {
		a, _ := os.ReadFile(filepath.Join(got, f))
		b, _ := os.ReadFile(filepath.Join(want, f))
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs", f)
		}
	}
}

// folderFiles lists the files of a folder, sorted.
func folderFiles(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

// tarGz writes the files under dir to a .tar.gz archive, in name order.
func tarGz(t *testing.T, dir, out string) string {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if err := tw.WriteHeader(&tar.Header{Name: filepath.ToSlash(rel), Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(b))}); err != nil {
			return err
		}
		_, err = tw.Write(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestVectorizeShardsStreamsTheSameCorpus runs vectorize --shards, which
// streams, on corpora of every kind and with several pipelines, and checks
// that the shards are those the in-memory path writes, byte for byte.
func TestVectorizeShardsStreamsTheSameCorpus(t *testing.T) {
	tmp := t.TempDir()
	td := func(p string) string { return filepath.Join("..", "..", "corpus", "testdata", p) }
	ng := tarGz(t, td("20ng"), filepath.Join(tmp, "20ng.tar.gz"))
	jsonl := filepath.Join(tmp, "docs.jsonl")
	if _, _, err := run(t, "synth", "--preset", "small", "--docs", "150", "--seed", "4", "--format", "jsonl", "--out", jsonl); err != nil {
		t.Fatal(err)
	}
	mtxDir := filepath.Join(tmp, "mtx")
	if _, _, err := run(t, "vectorize", "--format", "jsonl", jsonl, "--weight", "tf", "--tokens", "alnum", "--out", filepath.Join(mtxDir, "x.mtx")); err != nil {
		t.Fatal(err)
	}
	shardsIn := filepath.Join(tmp, "shards-in")
	if _, _, err := run(t, "synth", "--preset", "small", "--docs", "90", "--format", "shards", "--out", shardsIn); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		rows    int
		args    []string
		streams bool
	}{
		{"20ng tar.gz", 4, []string{"--format", "20ng", ng}, true},
		{"20ng folder, subset, removals, bigrams", 3, []string{"--format", "20ng", td("20ng"), "--subset", "train", "--remove", "headers,quotes", "--ngrams", "1-2", "--min-df", "1"}, true},
		{"bbc, tf, max features", 2, []string{"--format", "bbc", td("bbc"), "--weight", "tf", "--max-features", "40"}, true},
		{"reuters-nltk, tsnmf", 2, []string{"--format", "reuters-nltk", td("nltk-reuters"), "--preset", "tsnmf", "--min-chars", "10"}, true},
		{"brown, theme", 2, []string{"--format", "brown", td("brown"), "--preset", "theme"}, true},
		{"reuters-sgml (in memory)", 50, []string{"--format", "reuters-sgml", td("reuters-sgml"), "--preset", "ssnmf", "--min-df", "1"}, false},
		{"jsonl, min-tokens, sublinear", 40, []string{"--format", "jsonl", jsonl, "--min-tokens", "30", "--sublinear", "--tokens", "alnum"}, true},
		{"jsonl, corex", 64, []string{"--format", "jsonl", jsonl, "--preset", "corex"}, true},
		{"jsonl, default", 33, []string{"--format", "jsonl", jsonl, "--tokens", "alnum"}, true},
		{"csv", 1, []string{"--format", "csv", td("table/docs.csv"), "--weight", "binary", "--min-len", "1"}, true},
		{"mtx", 32, []string{"--format", "mtx", filepath.Join(mtxDir, "x.mtx")}, true},
		{"uci", 1, []string{"--format", "uci", td("uci/docword.tiny.txt")}, true},
		{"shards", 25, []string{"--format", "shards", shardsIn}, true},
	}
	for k, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, want := filepath.Join(tmp, fmt.Sprint("got", k)), filepath.Join(tmp, fmt.Sprint("want", k))
			inMemoryShards(t, want, tc.rows, tc.args...)
			args := append([]string{"vectorize", "--shards", got, "--rows-per-shard", fmt.Sprint(tc.rows)}, tc.args...)
			stdout, stderr, err := run(t, args...)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(stdout, "wrote ") {
				t.Errorf("stdout: %q", stdout)
			}
			if inMemory := strings.Contains(stderr, "in memory"); inMemory == tc.streams {
				t.Errorf("read in memory %v, want %v; stderr:\n%s", inMemory, !tc.streams, stderr)
			}
			if text := !strings.HasPrefix(tc.args[1], "mtx") && !strings.HasPrefix(tc.args[1], "uci") && !strings.HasPrefix(tc.args[1], "shards"); text &&
				(!strings.Contains(stderr, "pass 1/2, the vocabulary: ") || !strings.Contains(stderr, "pass 2/2, the rows: ")) {
				t.Errorf("no progress of the two passes on stderr:\n%s", stderr)
			}
			sameShards(t, got, want)
		})
	}

	// Standard input is read in memory, with the same result.
	t.Run("stdin", func(t *testing.T) {
		got, want := filepath.Join(tmp, "got-stdin"), filepath.Join(tmp, "want-stdin")
		inMemoryShards(t, want, 50, "--format", "jsonl", jsonl, "--tokens", "alnum")
		b, err := os.ReadFile(jsonl)
		if err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		root := newRoot(&out, &errb)
		root.SetIn(bytes.NewReader(b))
		root.SetArgs([]string{"vectorize", "--format", "jsonl", "-", "--shards", got, "--rows-per-shard", "50", "--tokens", "alnum"})
		if err := root.ExecuteContext(context.Background()); err != nil {
			t.Fatal(err)
		}
		sameShards(t, got, want)
	})

	// A MatrixMarket file whose entries are not in row order is found out
	// on the way and read in memory.
	t.Run("mtx out of order", func(t *testing.T) {
		d := filepath.Join(tmp, "unordered")
		writeTestFiles(t, d, map[string]string{
			"x.mtx":      "%%MatrixMarket matrix coordinate real general\n3 2 4\n1 1 1\n2 2 2\n1 2 3\n3 1 4\n",
			"vocab.txt":  "a\nb\n",
			"labels.txt": "x\n\ny,z\n",
		})
		got, want := filepath.Join(tmp, "got-unordered"), filepath.Join(tmp, "want-unordered")
		inMemoryShards(t, want, 2, "--format", "mtx", filepath.Join(d, "x.mtx"))
		_, stderr, err := run(t, "vectorize", "--format", "mtx", filepath.Join(d, "x.mtx"), "--shards", got, "--rows-per-shard", "2")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(stderr, "not in row order") {
			t.Errorf("stderr: %s", stderr)
		}
		sameShards(t, got, want)
	})
}

// writeTestFiles creates files (name → contents) in dir.
func writeTestFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestVectorizeShardsErrors checks that a bad document is named by its
// file and line, that the errors of an empty selection are those of the
// in-memory reading, and that a failed run leaves the target as it was.
func TestVectorizeShardsErrors(t *testing.T) {
	tmp := t.TempDir()
	out := filepath.Join(tmp, "shards")
	good := filepath.Join(tmp, "good.jsonl")
	writeTestFiles(t, tmp, map[string]string{
		"good.jsonl": `{"text": "rockets and orbits", "labels": ["space"]}` + "\n" + `{"text": "bread and ovens"}` + "\n",
	})
	if _, _, err := run(t, "vectorize", "--format", "jsonl", good, "--shards", out, "--weight", "tf"); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(filepath.Join(out, shard.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for i := range 300 {
		lines = append(lines, fmt.Sprintf(`{"text": "document %d about rockets", "id": "d%d"}`, i, i))
	}
	lines[250] = `{"text": 250}`
	bad := filepath.Join(tmp, "bad.jsonl")
	writeTestFiles(t, tmp, map[string]string{"bad.jsonl": strings.Join(lines, "\n") + "\n"})
	_, _, err = run(t, "vectorize", "--format", "jsonl", bad, "--shards", out, "--rows-per-shard", "16")
	if err == nil || !strings.Contains(err.Error(), bad+":251:") {
		t.Errorf("a bad line: %v, want an error naming %s:251", err, bad)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--format", "jsonl", good, "--subset", "train"}, "--subset train: " + good + " has no train/test split"},
		{[]string{"--format", "jsonl", good, "--subset", "dev"}, `--subset: want all, train or test, not "dev"`},
		{[]string{"--format", "jsonl", good, "--min-df", "3"}, "no term left"},
		{[]string{"--format", "20ng", filepath.Join("..", "..", "corpus", "testdata", "20ng"), "--categories", "sci.space", "--subset", "test", "--min-chars", "100000"}, "no document left"},
	} {
		_, _, err := run(t, append([]string{"vectorize", "--shards", out}, tc.args...)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %q", tc.args, err, tc.want)
		}
	}
	after, err := os.ReadFile(filepath.Join(out, shard.ManifestFile))
	if err != nil || !bytes.Equal(before, after) {
		t.Errorf("the failed runs changed %s (%v)", out, err)
	}
	if ents, _ := os.ReadDir(tmp); len(ents) != 3 {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("left behind: %v", names)
	}
}
