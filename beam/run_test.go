package beam

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	beamsdk "github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/semitopic/semitopic/blocks"
	"github.com/semitopic/semitopic/shard"
	"github.com/semitopic/semitopic/sparse"
)

// The pipelines run on Prism in this process: the workers are goroutines
// of the test binary talking to it over loopback. Beam 2.77 leaves an
// empty file in the temporary folder for every loopback job: the tests
// give it a folder of their own.
func TestMain(m *testing.M) {
	flag.Parse()
	beamsdk.Init()
	os.Exit(runInTempDir(m))
}

func runInTempDir(m *testing.M) int {
	tmp, err := os.MkdirTemp("", "semitopic-beam-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(tmp)
	if err := os.Setenv("TMPDIR", tmp); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return m.Run()
}

// corpus is a small synthetic count matrix written as a sharded corpus.
type corpus struct {
	x      *sparse.CSR
	labels [][]string
	dir    string
	rows   int // documents per shard
}

// writeCorpus draws a docs × terms count matrix (a few terms per document,
// every third document labelled) and writes it in shards of rows documents.
func writeCorpus(t *testing.T, docs, terms, rows int, seed uint64) *corpus {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 1))
	var ts []sparse.Triplet
	labels := make([][]string, docs)
	for d := range docs {
		for j := range terms {
			if r.Float64() < 0.3 {
				ts = append(ts, sparse.Triplet{Row: d, Col: j, Val: float64(1 + r.IntN(4))})
			}
		}
		if d%3 == 0 {
			labels[d] = []string{[]string{"a", "b"}[r.IntN(2)]}
		}
	}
	x, err := sparse.FromTriplets(docs, terms, ts)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "corpus")
	w, err := shard.Create(dir, terms, shard.Options{RowsPerShard: rows, Labels: true})
	if err != nil {
		t.Fatal(err)
	}
	for d := range docs {
		lo, hi := x.Indptr[d], x.Indptr[d+1]
		if err := w.Add(x.Indices[lo:hi], x.Data[lo:hi], labels[d]); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return &corpus{x: x, labels: labels, dir: dir, rows: rows}
}

// inMemory fits tr on c with blocks.Run, the matrix and the state in
// memory.
func (c *corpus) inMemory(t *testing.T, tr blocks.Trainer) *blocks.MemStore {
	t.Helper()
	src, err := blocks.FromCSR(c.x, c.labels, c.rows)
	if err != nil {
		t.Fatal(err)
	}
	st := blocks.NewMemStore()
	if err := blocks.Run(context.Background(), src, st, tr); err != nil {
		t.Fatal(err)
	}
	return st
}

// closeTo fails unless got and want agree to within tol relative to the
// largest magnitude in want.
func closeTo(t *testing.T, what string, got, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	scale := 0.0
	for _, v := range want {
		scale = math.Max(scale, math.Abs(v))
	}
	for i := range want {
		if d := math.Abs(got[i] - want[i]); !(d <= tol*scale) {
			t.Fatalf("%s[%d] = %v, want %v (relative difference %.3g > %g)", what, i, got[i], want[i], d/scale, tol)
		}
	}
}

// sameState checks that the state name of every block of c is the same in
// the Beam run's state folder as in the in-memory run's store.
func sameState(t *testing.T, c *corpus, stateDir string, mem blocks.Store, name string, perDoc int) {
	t.Helper()
	st, err := shard.NewStore(stateDir)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i*c.rows < c.x.Rows; i++ {
		n := min(c.rows, c.x.Rows-i*c.rows) * perDoc
		got, want := make([]float64, n), make([]float64, n)
		if err := st.Load(name, i, got); err != nil {
			t.Fatal(err)
		}
		if err := mem.Load(name, i, want); err != nil {
			t.Fatal(err)
		}
		closeTo(t, name, got, want, 1e-9)
	}
}

// The passes on Beam give the in-memory fit: the topic-side matrix, the
// documents' state, the number of passes.
func TestToyMatchesInMemory(t *testing.T) {
	c := writeCorpus(t, 47, 19, 10, 1)
	want := newToy(3, 19, 4)
	mem := c.inMemory(t, want)

	got := newToy(3, 19, 4)
	state := filepath.Join(t.TempDir(), "state")
	if err := Run(context.Background(), nil, c.dir, state, got); err != nil {
		t.Fatal(err)
	}
	if got.Pass != want.Pass {
		t.Fatalf("%d passes, want %d", got.Pass, want.Pass)
	}
	closeTo(t, "H", got.H, want.H, 1e-9)
	sameState(t, c, state, mem, toyState(4), 3)
	sameState(t, c, state, mem, toyState(3), 3)

	// Run leaves only the trainer's state and the checkpoint of the last
	// pass in the state folder.
	ents, err := os.ReadDir(state)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if !strings.HasPrefix(e.Name(), "w.") && e.Name() != shard.CheckpointFile {
			t.Errorf("the state folder keeps %s", e.Name())
		}
	}
	st, err := shard.NewStore(state)
	if err != nil {
		t.Fatal(err)
	}
	resumed := &toyTrainer{}
	if ok, err := blocks.Resume(st, resumed); !ok || err != nil {
		t.Fatalf("no checkpoint: %v", err)
	}
	closeTo(t, "H of the checkpoint", resumed.H, want.H, 1e-9)
	if resumed.StatsLen() != 0 {
		t.Errorf("the checkpoint is not of the finished fit")
	}
}

// A corpus of one shard, and a trainer done after its first pass.
func TestOneShardOnePass(t *testing.T) {
	c := writeCorpus(t, 6, 5, 100, 2)
	want := newToy(2, 5, 1)
	mem := c.inMemory(t, want)
	got := newToy(2, 5, 1)
	state := filepath.Join(t.TempDir(), "state")
	prism, err := NamedRunner("prism")
	if err != nil {
		t.Fatal(err)
	}
	if err := Run(context.Background(), prism, c.dir, state, got); err != nil {
		t.Fatal(err)
	}
	closeTo(t, "H", got.H, want.H, 1e-9)
	sameState(t, c, state, mem, toyState(1), 2)
}

// A fit interrupted after a pass resumes from the checkpoint and ends as
// an uninterrupted one.
func TestResume(t *testing.T) {
	c := writeCorpus(t, 33, 11, 8, 7)
	want := newToy(2, 11, 4)
	mem := c.inMemory(t, want)

	state := filepath.Join(t.TempDir(), "state")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	first := &cancelTrainer{toyTrainer: *newToy(2, 11, 4), cancel: cancel}
	if err := Run(ctx, nil, c.dir, state, first); !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	st, err := shard.NewStore(state)
	if err != nil {
		t.Fatal(err)
	}
	got := &toyTrainer{}
	if ok, err := blocks.Resume(st, got); !ok || err != nil {
		t.Fatalf("no checkpoint: %v", err)
	}
	if got.Pass != 1 {
		t.Fatalf("the checkpoint is after %d passes, want 1", got.Pass)
	}
	if err := Run(context.Background(), nil, c.dir, state, got); err != nil {
		t.Fatal(err)
	}
	closeTo(t, "H", got.H, want.H, 1e-9)
	sameState(t, c, state, mem, toyState(4), 2)
}

// A trainer that is already finished (StatsLen 0) runs no pass.
func TestFinished(t *testing.T) {
	c := writeCorpus(t, 5, 4, 10, 8)
	tr := newToy(1, 4, 0)
	state := t.TempDir()
	if err := Run(context.Background(), nil, c.dir, state, tr); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(state); len(ents) != 0 {
		t.Errorf("the state folder has %d files", len(ents))
	}
}

// A Map's error stops the fit and reaches the caller with its text.
func TestMapError(t *testing.T) {
	c := writeCorpus(t, 30, 8, 10, 3)
	tr := &failTrainer{toyTrainer: *newToy(2, 8, 3), FailBlock: 1}
	err := Run(context.Background(), nil, c.dir, t.TempDir(), tr)
	if err == nil || !strings.Contains(err.Error(), "toy: block refused") || !strings.Contains(err.Error(), "pass 1") {
		t.Fatalf("error %v, want the trainer's on pass 1", err)
	}
	if tr.Pass != 0 {
		t.Fatalf("the trainer ran %d passes", tr.Pass)
	}
}

// A cancellation between passes stops the fit with ctx.Err(), the trainer
// as the pass before left it.
func TestCancel(t *testing.T) {
	c := writeCorpus(t, 20, 6, 10, 4)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tr := &cancelTrainer{toyTrainer: *newToy(2, 6, 5), cancel: cancel}
	if err := Run(ctx, nil, c.dir, t.TempDir(), tr); !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if tr.Pass != 1 {
		t.Fatalf("%d passes, want 1", tr.Pass)
	}
}

// A trainer whose type was not registered cannot be rebuilt on a worker,
// which Run says before running anything.
func TestUnregisteredTrainer(t *testing.T) {
	type unregistered struct{ toyTrainer }
	c := writeCorpus(t, 5, 4, 10, 5)
	err := Run(context.Background(), nil, c.dir, t.TempDir(), &unregistered{*newToy(1, 4, 1)})
	if err == nil || !strings.Contains(err.Error(), "RegisterTrainer") {
		t.Fatalf("error %v, want one naming RegisterTrainer", err)
	}
}

// Beam's --async would return before a pass's sum is written: Run
// refuses it.
func TestAsync(t *testing.T) {
	c := writeCorpus(t, 5, 4, 10, 9)
	if err := flag.Set("async", "true"); err != nil {
		t.Fatal(err)
	}
	defer flag.Set("async", "false")
	err := Run(context.Background(), nil, c.dir, t.TempDir(), newToy(1, 4, 1))
	if err == nil || !strings.Contains(err.Error(), "--async") {
		t.Fatalf("error %v, want one naming --async", err)
	}
}

// Missing folders and unknown runners are errors that say so.
func TestBadInput(t *testing.T) {
	err := Run(context.Background(), nil, filepath.Join(t.TempDir(), "none"), t.TempDir(), newToy(1, 4, 1))
	if err == nil {
		t.Fatal("no error for a missing corpus")
	}
	if _, err := NamedRunner("no-such-runner"); err == nil || !strings.Contains(err.Error(), "no-such-runner") {
		t.Fatalf("error %v, want one naming the runner", err)
	}
	for _, name := range []string{"", "prism", "flink", "spark", "dataflow", "universal"} {
		if r, err := NamedRunner(name); r == nil || err != nil {
			t.Errorf("NamedRunner(%q) = %v", name, err)
		}
	}
}
