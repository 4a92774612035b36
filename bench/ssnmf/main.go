package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/datasets"
	"github.com/semitopic/semitopic/internal/datadir"
	"github.com/semitopic/semitopic/internal/peakmem"
	"github.com/semitopic/semitopic/metrics"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/ssnmf"
	"github.com/semitopic/semitopic/vectorize"
)

func main() {
	log.SetFlags(0)
	if len(os.Args) < 2 {
		log.Fatal("usage: ssnmf export|fit [flags]")
	}
	switch os.Args[1] {
	case "export":
		export(os.Args[2:])
	case "fit":
		fit(os.Args[2:])
	default:
		log.Fatalf("ssnmf: unknown command %q (want export or fit)", os.Args[1])
	}
}

func export(args []string) {
	fs := flag.NewFlagSet("export", flag.ExitOnError)
	dir := fs.String("dir", "", "output folder")
	seed := fs.Uint64("seed", 0, "dataset seed")
	_ = fs.Parse(args)
	if *dir == "" {
		log.Fatal("export: -dir is required")
	}
	ctx := context.Background()
	data, err := datadir.Find()
	if err != nil {
		log.Fatal(err)
	}
	ds, err := datasets.SSNMF20News(ctx, filepath.Join(data, "20news-bydate", "20news-bydate.tar.gz"), datasets.SSNMF20NewsOptions{Seed: *seed})
	if err != nil {
		log.Fatal(err)
	}
	pl, err := vectorize.PipelinePreset("ssnmf")
	if err != nil {
		log.Fatal(err)
	}
	v, err := pl.New()
	if err != nil {
		log.Fatal(err)
	}
	docs := append(append([]corpus.Document(nil), ds.Train.Docs...), ds.Val.Docs...)
	classes := append(append([]int(nil), ds.Train.Class...), ds.Val.Class...)
	tr, err := v.FitTransform(ctx, docs)
	if err != nil {
		log.Fatal(err)
	}
	te, err := v.Transform(ctx, ds.Test.Docs)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		log.Fatal(err)
	}
	writeMatrix(filepath.Join(*dir, "train.mtx"), tr.X)
	writeMatrix(filepath.Join(*dir, "test.mtx"), te.X)
	writeLines(filepath.Join(*dir, "train.labels"), ints(classes))
	writeLines(filepath.Join(*dir, "test.labels"), ints(ds.Test.Class))
	groups := append(append([]int(nil), ds.Train.Subgroup...), ds.Val.Subgroup...)
	writeLines(filepath.Join(*dir, "train.groups"), ints(groups))
	writeLines(filepath.Join(*dir, "test.groups"), ints(ds.Test.Subgroup))
	writeLines(filepath.Join(*dir, "vocab.txt"), v.Vocabulary())
	fmt.Printf("wrote %s: train %d×%d (%d non-zeros), test %d documents\n", *dir, tr.X.Rows, tr.X.Cols, tr.X.NNZ(), te.X.Rows)
}

func ints(xs []int) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = strconv.Itoa(x)
	}
	return out
}

func writeMatrix(path string, x *sparse.CSR) {
	f, err := os.Create(path)
	if err != nil {
		log.Fatal(err)
	}
	w := bufio.NewWriter(f)
	if err := sparse.WriteMatrixMarket(w, x); err != nil {
		log.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
}

func writeLines(path string, lines []string) {
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		log.Fatal(err)
	}
}

func readMatrix(path string) *sparse.CSR {
	f, err := os.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	x, err := sparse.ReadMatrixMarket(bufio.NewReader(f))
	if err != nil {
		log.Fatalf("%s: %v", path, err)
	}
	return x
}

func readLabels(path string) []int {
	raw, err := os.ReadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	var out []int
	for i, s := range strings.Fields(string(raw)) {
		v, err := strconv.Atoi(s)
		if err != nil {
			log.Fatalf("%s line %d: %v", path, i+1, err)
		}
		out = append(out, v)
	}
	return out
}

func fit(args []string) {
	fs := flag.NewFlagSet("fit", flag.ExitOnError)
	dir := fs.String("dir", "", "folder written by export")
	model := fs.String("model", "F,F", "model: F,F F,D D,F D,D")
	lambda := fs.Float64("lambda", 100, "λ")
	tol := fs.Float64("tol", 1e-4, "tolerance")
	maxIter := fs.Int("maxiter", 50, "iteration bound")
	k := fs.Int("k", 13, "rank")
	seed := fs.Uint64("seed", 0, "initialisation seed")
	masked := fs.Bool("masked", false, "stack the test documents with zero data and label weight, as the reference")
	initDir := fs.String("init", "", "start from the reference's A0.mtx, S0.mtx, B0.mtx in this folder (written by ref_fit.py with SSNMF_DUMP_INIT)")
	_ = fs.Parse(args)
	if *dir == "" {
		log.Fatal("fit: -dir is required")
	}
	m, err := ssnmf.ParseModel(*model)
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	train, test := readMatrix(filepath.Join(*dir, "train.mtx")), readMatrix(filepath.Join(*dir, "test.mtx"))
	ytr, yte := readLabels(filepath.Join(*dir, "train.labels")), readLabels(filepath.Join(*dir, "test.labels"))
	cfg := ssnmf.Config{K: *k, Losses: m, Lambda: *lambda, Tol: *tol, MaxIter: *maxIter, Seed: *seed}
	x := train
	labels := ytr
	if *masked {
		// The reference fits train and test columns together, the test
		// ones with zero data and label weight (evaluation.py's W_train, L).
		x = stack(train, test)
		labels = append(append([]int(nil), ytr...), make([]int, test.Rows)...)
		cfg.DataRowWeights = make([]float64, x.Rows)
		for i := 0; i < train.Rows; i++ {
			cfg.DataRowWeights[i] = 1
		}
		cfg.LabelRowWeights = cfg.DataRowWeights
	}
	y, _, err := ssnmf.OneHot(labels, 5)
	if err != nil {
		log.Fatal(err)
	}
	cfg.Y = y
	if *initDir != "" {
		// The paper's A (terms × k), S (k × documents) and B (classes × k):
		// H0 = Aᵀ, W0 = Sᵀ (training rows only unless masked), B0 = B.
		a0 := readMatrix(filepath.Join(*initDir, "A0.mtx")).ToDense()
		s0 := readMatrix(filepath.Join(*initDir, "S0.mtx")).ToDense()
		cfg.H0 = mat.DenseCopyOf(a0.T())
		cfg.W0 = mat.DenseCopyOf(mat.DenseCopyOf(s0.T()).Slice(0, x.Rows, 0, *k))
		cfg.B0 = readMatrix(filepath.Join(*initDir, "B0.mtx")).ToDense()
	}
	t0 := time.Now()
	res, err := ssnmf.Fit(ctx, x, cfg)
	if err != nil {
		log.Fatal(err)
	}
	fitTime := time.Since(t0)
	t1 := time.Now()
	res.Represent = ssnmf.TransformConfig{Seed: *seed}
	wte, err := res.Transform(ctx, test)
	if err != nil {
		log.Fatal(err)
	}
	scores, err := res.Scores(wte)
	if err != nil {
		log.Fatal(err)
	}
	testTime := time.Since(t1)
	acc, err := metrics.Accuracy(yte, metrics.ArgmaxRows(scores))
	if err != nil {
		log.Fatal(err)
	}
	ntr := train.Rows
	all := mat.NewDense(ntr+test.Rows, *k, nil)
	all.Stack(res.W.Slice(0, ntr, 0, *k), wte)
	groups := append(readLabels(filepath.Join(*dir, "train.groups")), readLabels(filepath.Join(*dir, "test.groups"))...)
	hard, err := metrics.ClusterScores(all, groups, 13, false)
	if err != nil {
		log.Fatal(err)
	}
	soft, err := metrics.ClusterScores(all, groups, 13, true)
	if err != nil {
		log.Fatal(err)
	}
	peak, _ := peakmem.MiB() // 0 where the system does not report it
	out := map[string]any{
		"impl": "semitopic", "model": m.String(), "lambda": *lambda, "tol": *tol, "seed": *seed, "masked": *masked,
		"fit_s": fitTime.Seconds(), "test_s": testTime.Seconds(), "iters": res.Iterations,
		"acc": acc, "p_hard": hard.Mean, "p_soft": soft.Mean, "peak_mb": peak,
	}
	b, _ := json.Marshal(out)
	fmt.Println(string(b))
}

// stack returns a on top of b.
func stack(a, b *sparse.CSR) *sparse.CSR {
	indptr := append([]int(nil), a.Indptr...)
	for _, p := range b.Indptr[1:] {
		indptr = append(indptr, a.NNZ()+p)
	}
	idx := append(append([]int32(nil), a.Indices...), b.Indices...)
	data := append(append([]float64(nil), a.Data...), b.Data...)
	x, err := sparse.NewCSR(a.Rows+b.Rows, a.Cols, indptr, idx, data)
	if err != nil {
		log.Fatal(err)
	}
	return x
}
