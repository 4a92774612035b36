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
	"runtime"
	"slices"
	"time"

	"github.com/semitopic/semitopic/classify"
	"github.com/semitopic/semitopic/datasets"
	"github.com/semitopic/semitopic/internal/datadir"
	"github.com/semitopic/semitopic/sparse"
)

// result is one classifier's line of go_results.json.
type result struct {
	Name        string  `json:"name"`
	Accuracy    float64 `json:"accuracy"`
	ValAccuracy float64 `json:"val_accuracy"`
	FitSeconds  float64 `json:"fit_seconds"`
	PredSeconds float64 `json:"predict_seconds"`
	Iterations  []int   `json:"iterations,omitempty"`
	Converged   bool    `json:"converged"`
}

func main() {
	seed := flag.Uint64("seed", 1, "seed of the dataset's sampler (and of the SVM's coordinate order)")
	runs := flag.Int("runs", 3, "fit each classifier this many times and report the fastest")
	out := flag.String("out", filepath.Join(os.TempDir(), "semitopic-classifycmp"), "folder for the dataset files and go_results.json")
	data := flag.String("data", "", "20news-bydate folder or archive (default: the shared data folder's)")
	flag.Parse()
	if *runs < 1 {
		log.Fatal("-runs must be at least 1")
	}
	path := *data
	if path == "" {
		dir, err := datadir.Find()
		if err != nil {
			log.Fatal(err)
		}
		path = filepath.Join(dir, "20news-bydate", "20news-bydate.tar.gz")
	}
	ctx := context.Background()
	t0 := time.Now()
	ds, err := datasets.SSNMF20News(ctx, path, datasets.SSNMF20NewsOptions{Seed: *seed})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("SSNMF 20 Newsgroups, seed %d: %d per class; train %d, val %d, test %d documents; %d terms (built in %v)\n",
		*seed, ds.PerClass, ds.Train.Len(), ds.Val.Len(), ds.Test.Len(), len(ds.Vocab), time.Since(t0).Round(time.Millisecond))
	if err := writeDataset(*out, ds); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("wrote the dataset to %s\n", *out)
	fmt.Printf("cores: %d\n\n", runtime.GOMAXPROCS(0))

	models := []struct {
		name string
		mk   func() classify.Classifier
		conv func(classify.Classifier) classify.Convergence
	}{
		{"MultinomialNB", func() classify.Classifier { return &classify.MultinomialNB{} }, nil},
		{"LinearSVC", func() classify.Classifier { return &classify.LinearSVC{Seed: *seed} },
			func(c classify.Classifier) classify.Convergence { return c.(*classify.LinearSVC).Convergence() }},
		{"LogisticRegression", func() classify.Classifier { return &classify.LogisticRegression{} },
			func(c classify.Classifier) classify.Convergence {
				return c.(*classify.LogisticRegression).Convergence()
			}},
	}
	var results []result
	fmt.Printf("%-20s %9s %9s %10s %10s  %s\n", "classifier", "test acc", "val acc", "fit", "predict", "iterations")
	for _, m := range models {
		var fits, preds []time.Duration
		var c classify.Classifier
		var pred []int
		for r := 0; r < *runs; r++ {
			c = m.mk()
			t := time.Now()
			if err := c.Fit(ctx, ds.Train.X, ds.Train.Class); err != nil {
				log.Fatalf("%s: %v", m.name, err)
			}
			fits = append(fits, time.Since(t))
			t = time.Now()
			if pred, err = c.Predict(ds.Test.X); err != nil {
				log.Fatal(err)
			}
			preds = append(preds, time.Since(t))
		}
		valPred, err := c.Predict(ds.Val.X)
		if err != nil {
			log.Fatal(err)
		}
		res := result{
			Name:        m.name,
			Accuracy:    accuracy(pred, ds.Test.Class),
			ValAccuracy: accuracy(valPred, ds.Val.Class),
			FitSeconds:  slices.Min(fits).Seconds(),
			PredSeconds: slices.Min(preds).Seconds(),
			Converged:   true,
		}
		if m.conv != nil {
			cv := m.conv(c)
			res.Iterations, res.Converged = cv.Iterations, !cv.MaxIterReached
		}
		results = append(results, res)
		fmt.Printf("%-20s %8.2f%% %8.2f%% %9.1fms %9.1fms  %v\n", m.name, 100*res.Accuracy, 100*res.ValAccuracy,
			1000*res.FitSeconds, 1000*res.PredSeconds, res.Iterations)
	}
	b, err := json.MarshalIndent(map[string]any{"seed": *seed, "cores": runtime.GOMAXPROCS(0), "runs": *runs, "results": results}, "", " ")
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(*out, "go_results.json"), append(b, '\n'), 0o644); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("\nnext: /usr/bin/python3 bench/sklearn/classify_compare.py %s\n", *out)
}

func accuracy(pred, y []int) float64 {
	right := 0
	for i, c := range pred {
		if c == y[i] {
			right++
		}
	}
	return float64(right) / float64(len(y))
}

func writeDataset(dir string, ds *datasets.Dataset) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := writeLines(filepath.Join(dir, "vocab.txt"), ds.Vocab); err != nil {
		return err
	}
	if err := writeLines(filepath.Join(dir, "classes.txt"), ds.ClassNames); err != nil {
		return err
	}
	for _, p := range []struct {
		name string
		part *datasets.Part
	}{{"train", &ds.Train}, {"val", &ds.Val}, {"test", &ds.Test}} {
		if err := writeMatrix(filepath.Join(dir, p.name+".mtx"), p.part.X); err != nil {
			return err
		}
		labels := make([]string, p.part.Len())
		for i, c := range p.part.Class {
			labels[i] = fmt.Sprint(c)
		}
		if err := writeLines(filepath.Join(dir, p.name+"_labels.txt"), labels); err != nil {
			return err
		}
		docs := make([]string, p.part.Len())
		for i, d := range p.part.Docs {
			b, err := json.Marshal(map[string]any{"id": d.ID, "class": p.part.Class[i], "text": d.Text})
			if err != nil {
				return err
			}
			docs[i] = string(b)
		}
		if err := writeLines(filepath.Join(dir, p.name+"_docs.jsonl"), docs); err != nil {
			return err
		}
	}
	return nil
}

func writeMatrix(path string, m *sparse.CSR) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	if err := sparse.WriteMatrixMarket(w, m); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return f.Close()
}

func writeLines(path string, lines []string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	for _, l := range lines {
		w.WriteString(l)
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return f.Close()
}
