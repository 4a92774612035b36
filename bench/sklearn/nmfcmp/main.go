package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/internal/atomicfile"
	"github.com/semitopic/semitopic/internal/cputime"
	"github.com/semitopic/semitopic/internal/datadir"
	"github.com/semitopic/semitopic/internal/kernels"
	"github.com/semitopic/semitopic/internal/peakmem"
	"github.com/semitopic/semitopic/internal/rng"
	"github.com/semitopic/semitopic/nmf"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/vectorize"
)

func main() {
	log.SetFlags(0)
	if len(os.Args) < 2 {
		log.Fatal("usage: nmfcmp prepare|fit|gathers [flags]")
	}
	switch os.Args[1] {
	case "prepare":
		prepare(os.Args[2:])
	case "fit":
		fit(os.Args[2:])
	case "gathers":
		gathers(os.Args[2:])
	default:
		log.Fatalf("nmfcmp: unknown command %q (want prepare, fit or gathers)", os.Args[1])
	}
}

func prepare(args []string) {
	fs := flag.NewFlagSet("prepare", flag.ExitOnError)
	dir := fs.String("dir", "", "output folder for X.mtx, W0.mtx, H0.mtx")
	mtx := fs.String("mtx", "", "use this MatrixMarket corpus (linked as X.mtx) instead of Reuters, with the hashed start both sides compute (no W0.mtx, H0.mtx)")
	vocab := fs.Int("vocab", 2000, "keep the most frequent terms (0: all)")
	k := fs.Int("k", 90, "number of topics")
	seed := fs.Uint64("seed", 0, "seed of the starting factors")
	_ = fs.Parse(args)
	if *dir == "" {
		log.Fatal("prepare: -dir is required")
	}
	if *mtx != "" {
		abs, err := filepath.Abs(*mtx)
		if err != nil {
			log.Fatal(err)
		}
		if err := os.MkdirAll(*dir, 0o755); err != nil {
			log.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(*dir, "W0.mtx")); err == nil {
			log.Fatalf("prepare: %s holds W0.mtx from an earlier prepare, which fit would read with the new X: use another folder", *dir)
		}
		link := filepath.Join(*dir, "X.mtx")
		_ = os.Remove(link)
		if err := os.Symlink(abs, link); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("linked %s as %s; the start is the hashed one (fit -k sets k)\n", abs, link)
		return
	}
	ctx := context.Background()
	data, err := datadir.Find()
	if err != nil {
		log.Fatal(err)
	}
	rd, err := corpus.NewReader("reuters-nltk")
	if err != nil {
		log.Fatal(err)
	}
	c, err := rd.Read(ctx, filepath.Join(data, "reuters21578-nltk-apte", "reuters.tar.gz"))
	if err != nil {
		log.Fatal(err)
	}
	pl, err := vectorize.PipelinePreset("tsnmf")
	if err != nil {
		log.Fatal(err)
	}
	pl.Vectorize.MinChars = 0 // all documents
	pl.Vectorize.MaxFeatures = *vocab
	v, err := pl.New()
	if err != nil {
		log.Fatal(err)
	}
	res, err := v.FitTransform(ctx, c.Docs)
	if err != nil {
		log.Fatal(err)
	}
	x := res.X
	n, m := x.Dims()
	fmt.Printf("X: %d documents × %d terms, %d non-zeros (%d documents without a term)\n", n, m, x.NNZ(), res.EmptyRows)
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		log.Fatal(err)
	}
	// scikit-learn's init='random' scaling, drawn from our generator.
	rnd := rng.NewCompat(*seed, 1) // math/rand/v2's PCG stream, bit for bit
	s := math.Sqrt(x.Sum() / (float64(n) * float64(m)) / float64(*k))
	h0 := mat.NewDense(*k, m, nil)
	w0 := mat.NewDense(n, *k, nil)
	for _, f := range []*mat.Dense{h0, w0} {
		raw := f.RawMatrix().Data
		for i := range raw {
			raw[i] = s * math.Abs(rnd.NormFloat64())
		}
	}
	write(filepath.Join(*dir, "X.mtx"), func(w *bufio.Writer) error { return sparse.WriteMatrixMarket(w, x) })
	write(filepath.Join(*dir, "W0.mtx"), func(w *bufio.Writer) error { return sparse.WriteDenseMatrixMarket(w, w0) })
	write(filepath.Join(*dir, "H0.mtx"), func(w *bufio.Writer) error { return sparse.WriteDenseMatrixMarket(w, h0) })
	fmt.Printf("wrote X.mtx, W0.mtx (%d×%d), H0.mtx (%d×%d) to %s\n", n, *k, *k, m, *dir)
}

// write writes path atomically (a failure leaves what was there).
func write(path string, fn func(*bufio.Writer) error) {
	if err := atomicfile.WriteFile(path, func(w io.Writer) error { return fn(bufio.NewWriter(w)) }); err != nil {
		log.Fatal(err)
	}
}

func read(path string) *sparse.CSR {
	f, err := os.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	var mr sparse.MatrixMarketReader
	if st, err := f.Stat(); err == nil {
		mr.SizeHint = st.Size()
	}
	m, err := mr.Read(bufio.NewReaderSize(f, 1<<20))
	if err != nil {
		log.Fatalf("%s: %v", path, err)
	}
	return m
}

func fit(args []string) {
	fs := flag.NewFlagSet("fit", flag.ExitOnError)
	dir := fs.String("dir", "", "folder with X.mtx, W0.mtx, H0.mtx (from prepare)")
	lossName := fs.String("loss", "frobenius", "frobenius or kullback-leibler")
	iters := fs.Int("iter", 200, "iterations (no tolerance)")
	runs := fs.Int("runs", 1, "fit this many times and report each")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of the fits to this file")
	kFlag := fs.Int("k", 100, "topics of the hashed start (folders prepared with -mtx)")
	gathersName := fs.String("gathers", "float64", "precision of the gathered factor rows: float64 (scikit-learn's numerics to 1e-14), float32 or auto (nmf.Config.Gathers)")
	_ = fs.Parse(args)
	gathers, err := nmf.ParseGathers(*gathersName)
	if err != nil {
		log.Fatal(err)
	}
	if *dir == "" {
		log.Fatal("fit: -dir is required")
	}
	loss, err := nmf.ParseLoss(*lossName)
	if err != nil {
		log.Fatal(err)
	}
	t0 := time.Now()
	x := read(filepath.Join(*dir, "X.mtx"))
	// start returns the starting factors, read or computed anew for each
	// run so that no copy outlives the fit's own (as scikit-learn updates
	// its start in place).
	start := func() (w0, h0 *mat.Dense) {
		if _, err := os.Stat(filepath.Join(*dir, "W0.mtx")); err == nil {
			return read(filepath.Join(*dir, "W0.mtx")).ToDense(), read(filepath.Join(*dir, "H0.mtx")).ToDense()
		}
		return hashedStart(x, *kFlag)
	}
	w0, h0 := start()
	fmt.Printf("read in %.1f s\n", time.Since(t0).Seconds())
	k, _ := h0.Dims()
	n, m := x.Dims()
	fmt.Printf("X: %d × %d, %d non-zeros; k = %d; loss %v; %d iterations; %d cores; kernels: %s; gathers: %v\n", n, m, x.NNZ(), k, loss, *iters, runtime.GOMAXPROCS(0), kernels.Name(), gathers)
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			log.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			log.Fatal(err)
		}
		defer pprof.StopCPUProfile()
	}
	for r := 0; r < *runs; r++ {
		if r > 0 {
			w0, h0 = start()
		}
		cfg := nmf.Config{K: k, Loss: loss, W0: w0, H0: h0, MaxIter: *iters, Tol: -1, Gathers: gathers}
		w0, h0 = nil, nil
		c0, cpuOK := cputime.Now()
		t0 := time.Now()
		res, err := nmf.Fit(context.Background(), x, cfg)
		if err != nil {
			log.Fatal(err)
		}
		el := time.Since(t0)
		fmt.Printf("semitopic: objective %.15e (start %.15e) after %d iterations in %.2f s\n",
			res.FinalObjective(), res.Objective[0], res.Iterations, el.Seconds())
		if c1, ok := cputime.Now(); ok && cpuOK {
			// On a loaded machine the CPU time is steadier than the wall clock.
			fmt.Printf("fit CPU time %.2f s (user and system, all threads)\n", (c1 - c0).Seconds())
		}
	}
	if peak, err := peakmem.MiB(); err == nil {
		fmt.Printf("peak RSS %.1f MB\n", peak)
	}
}

// hashedStart is the starting point of folders prepared with -mtx, which
// nmf_compare.py computes identically: entries s·(0.1 + h/10007) with h an
// integer hash of the position and s = √(mean(X)/k), scikit-learn's
// random-start scale. It needs no file, so a start for a matrix of
// hundreds of thousands of rows is not written and parsed as text.
func hashedStart(x *sparse.CSR, k int) (w0, h0 *mat.Dense) {
	n, m := x.Dims()
	s := math.Sqrt(x.Sum() / (float64(n) * float64(m)) / float64(k))
	w0, h0 = mat.NewDense(n, k, nil), mat.NewDense(k, m, nil)
	for i := 0; i < n; i++ {
		row := w0.RawRowView(i)
		for t := range row {
			row[t] = s * (0.1 + float64((i*1000003+t*7919)%10007)/10007)
		}
	}
	for t := 0; t < k; t++ {
		row := h0.RawRowView(t)
		for j := range row {
			row[j] = s * (0.1 + float64((j*1000003+t*7919+5003)%10007)/10007)
		}
	}
	return w0, h0
}
