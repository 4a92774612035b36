// Command python is the Go half of the Python package's overhead
// benchmark (compare.py): it writes 20 Newsgroups' training set, vectorized
// with the default pipeline, as raw CSR arrays with its vocabulary and
// labels (every tenth document labeled), and times model.Fit of one kind
// on them with the options the Python estimators get, so that compare.py
// can time the same fit called from Python in between.
//
//	go run ./bench/python -write DIR
//	go run ./bench/python -dir DIR -kind tsnmf -max-iter 30
package main

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/internal/datadir"
	"github.com/semitopic/semitopic/model"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/vectorize"
)

// meta is DIR/meta.json: the matrix's shape and the files beside it.
type meta struct {
	Rows   int        `json:"rows"`
	Cols   int        `json:"cols"`
	NNZ    int        `json:"nnz"`
	Vocab  []string   `json:"vocab"`
	Labels [][]string `json:"labels"`
}

func main() {
	write := flag.String("write", "", "write 20 Newsgroups' training set to this folder and exit")
	dir := flag.String("dir", "", "the folder -write wrote")
	kind := flag.String("kind", "", "the kind to fit")
	maxIter := flag.Int("max-iter", 30, "iterations (the tolerance is tiny: every fit runs them all)")
	k := flag.Int("k", 20, "topics (nmf; the other kinds take one per label)")
	flag.Parse()
	ctx := context.Background()
	switch {
	case *write != "":
		if err := writeData(ctx, *write); err != nil {
			log.Fatal(err)
		}
	case *dir != "" && *kind != "":
		s, cpu, err := fit(ctx, *dir, *kind, *maxIter, *k)
		if err != nil {
			log.Fatal(err)
		}
		json.NewEncoder(os.Stdout).Encode(map[string]any{"kind": *kind, "seconds": s, "cpu_seconds": cpu})
	default:
		flag.Usage()
		os.Exit(2)
	}
}

func writeData(ctx context.Context, out string) error {
	data, err := datadir.Find()
	if err != nil {
		return err
	}
	c, err := corpus.Newsgroups{Subset: "train", RemoveHeaders: true, RemoveFooters: true, RemoveQuotes: true}.Read(ctx, filepath.Join(data, "20news-bydate", "20news-bydate.tar.gz"))
	if err != nil {
		return err
	}
	_, res, err := vectorize.DefaultPipeline().FitTransform(ctx, c.Docs)
	if err != nil {
		return err
	}
	m := meta{Rows: res.X.Rows, Cols: res.X.Cols, NNZ: len(res.X.Data), Vocab: res.Vocab, Labels: make([][]string, res.X.Rows)}
	for i, d := range res.Docs {
		if i%10 == 0 {
			m.Labels[i] = d.Labels
		}
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	indptr := make([]int64, len(res.X.Indptr))
	for i, p := range res.X.Indptr {
		indptr[i] = int64(p)
	}
	for name, v := range map[string]any{"indptr.bin": indptr, "indices.bin": res.X.Indices, "data.bin": res.X.Data} {
		f, err := os.Create(filepath.Join(out, name))
		if err != nil {
			return err
		}
		if err := binary.Write(f, binary.LittleEndian, v); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	fmt.Printf("%d documents × %d terms, %d non-zeros\n", m.Rows, m.Cols, m.NNZ)
	return os.WriteFile(filepath.Join(out, "meta.json"), b, 0o644)
}

func readArray[T any](path string, n int) ([]T, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := make([]T, n)
	return out, binary.Read(f, binary.LittleEndian, out)
}

// fit times model.Fit of kind on the data in dir, with the options
// compare.py gives the estimator: wall and CPU seconds (all threads).
func fit(ctx context.Context, dir, kind string, maxIter, k int) (wall, cpu float64, err error) {
	b, err := os.ReadFile(filepath.Join(dir, "meta.json"))
	if err != nil {
		return 0, 0, err
	}
	var m meta
	if err := json.Unmarshal(b, &m); err != nil {
		return 0, 0, err
	}
	ip, err := readArray[int64](filepath.Join(dir, "indptr.bin"), m.Rows+1)
	if err != nil {
		return 0, 0, err
	}
	indices, err := readArray[int32](filepath.Join(dir, "indices.bin"), m.NNZ)
	if err != nil {
		return 0, 0, err
	}
	data, err := readArray[float64](filepath.Join(dir, "data.bin"), m.NNZ)
	if err != nil {
		return 0, 0, err
	}
	indptr := make([]int, len(ip))
	for i, p := range ip {
		indptr[i] = int(p)
	}
	x, err := sparse.NewCSR(m.Rows, m.Cols, indptr, indices, data)
	if err != nil {
		return 0, 0, err
	}
	o := model.Options{Kind: kind, Seed: 1, MaxIter: maxIter}
	if kind != "lda" {
		o.Tol = 1e-300
	}
	if kind == "nmf" {
		o.K = k
	} else {
		o.Labels = m.Labels
	}
	c0, start := cpuTime(), time.Now()
	_, err = model.Fit(ctx, model.Matrix(x, m.Vocab), o)
	return time.Since(start).Seconds(), (cpuTime() - c0).Seconds(), err
}
