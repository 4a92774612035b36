package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"time"

	"github.com/semitopic/semitopic/metrics"
)

type sklearnValues struct {
	Homogeneity  float64   `json:"homogeneity"`
	Completeness float64   `json:"completeness"`
	VMeasure     float64   `json:"v_measure"`
	NMI          []float64 `json:"nmi"`
	AMI          []float64 `json:"ami"`
	ARI          *float64  `json:"ari"`
	EMI          float64   `json:"emi"`
}

type input struct {
	SklearnVersion string   `json:"sklearn_version"`
	Averages       []string `json:"averages"`
	SklearnSeconds float64  `json:"sklearn_seconds"`
	Cases          []struct {
		Name    string        `json:"name"`
		True    []int         `json:"true"`
		Pred    []int         `json:"pred"`
		Sklearn sklearnValues `json:"sklearn"`
	} `json:"cases"`
}

// goValues holds one case's measures from package metrics.
type goValues struct {
	h, c, v  float64
	nmi, ami [4]float64
	ari      float64
	norm     [4]float64 // normalizers, to spot 0/0 AMI values
}

// averages lists the normalisations in the order of the JSON file.
func averages() []metrics.Average {
	return []metrics.Average{metrics.AverageArithmetic, metrics.AverageMin, metrics.AverageGeometric, metrics.AverageMax}
}

func compute(a, b []int) (goValues, error) {
	var g goValues
	var err error
	if g.h, g.c, g.v, err = metrics.HomogeneityCompletenessV(a, b, 1); err != nil {
		return g, err
	}
	for k, avg := range averages() {
		if g.nmi[k], err = metrics.NormalizedMutualInfo(a, b, avg); err != nil {
			return g, err
		}
		if g.ami[k], err = metrics.AdjustedMutualInfo(a, b, avg); err != nil {
			return g, err
		}
	}
	if g.ari, err = metrics.AdjustedRandIndex(a, b); err != nil {
		return g, err
	}
	return g, nil
}

func main() {
	in := flag.String("in", "", "JSON file written by metrics_compare.py")
	tol := flag.Float64("tol", 1e-9, "largest allowed difference")
	quiet := flag.Bool("quiet", false, "print only the summary")
	flag.Parse()
	if *in == "" {
		log.Fatal("metricscmp: -in FILE is required (run bench/sklearn/metrics_compare.py)")
	}
	raw, err := os.ReadFile(*in)
	if err != nil {
		log.Fatal(err)
	}
	var data input
	if err := json.Unmarshal(raw, &data); err != nil {
		log.Fatalf("reading %s: %v", *in, err)
	}
	for k, name := range data.Averages {
		if all := averages(); k >= len(all) || all[k].String() != name {
			log.Fatalf("%s: average %d is %q, expected %v", *in, k, name, all)
		}
	}

	// Time the Go side on exactly the calls scikit-learn was timed on.
	results := make([]goValues, len(data.Cases))
	t0 := time.Now()
	for i, c := range data.Cases {
		if results[i], err = compute(c.True, c.Pred); err != nil {
			log.Fatalf("case %q: %v", c.Name, err)
		}
	}
	goSeconds := time.Since(t0).Seconds()
	for i, c := range data.Cases {
		ag, err := metrics.CompareLabelings(c.True, c.Pred)
		if err != nil {
			log.Fatalf("case %q: %v", c.Name, err)
		}
		for k, avg := range averages() {
			switch avg {
			case metrics.AverageArithmetic:
				results[i].norm[k] = (ag.EntropyTrue + ag.EntropyPred) / 2
			case metrics.AverageMin:
				results[i].norm[k] = math.Min(ag.EntropyTrue, ag.EntropyPred)
			case metrics.AverageGeometric:
				results[i].norm[k] = math.Sqrt(ag.EntropyTrue * ag.EntropyPred)
			case metrics.AverageMax:
				results[i].norm[k] = math.Max(ag.EntropyTrue, ag.EntropyPred)
			}
		}
	}

	worst := map[string]float64{}
	var order []string
	failed, undefined := 0, 0
	report := func(name, measure string, sk, g float64, zeroOverZero bool) {
		d := math.Abs(sk - g)
		mark := ""
		switch {
		case zeroOverZero:
			mark = "  0/0"
			undefined++
		case !(d <= *tol):
			mark = "  FAIL"
			failed++
		}
		if !zeroOverZero {
			if _, ok := worst[measure]; !ok {
				order = append(order, measure)
			}
			worst[measure] = math.Max(worst[measure], d)
		}
		if !*quiet || mark != "" {
			fmt.Printf("%-34s %-16s sklearn %-22.17g semitopic %-22.17g diff %.2g%s\n", name, measure, sk, g, d, mark)
		}
	}
	for i, c := range data.Cases {
		g, sk := results[i], c.Sklearn
		report(c.Name, "homogeneity", sk.Homogeneity, g.h, false)
		report(c.Name, "completeness", sk.Completeness, g.c, false)
		report(c.Name, "v_measure", sk.VMeasure, g.v, false)
		for k, avg := range averages() {
			report(c.Name, "nmi "+avg.String(), sk.NMI[k], g.nmi[k], false)
		}
		for k, avg := range averages() {
			norm := g.norm[k]
			zeroOverZero := norm > 1e-12 && math.Abs(norm-sk.EMI) <= 1e-12*norm
			report(c.Name, "ami "+avg.String(), sk.AMI[k], g.ami[k], zeroOverZero)
		}
		if sk.ARI == nil {
			log.Fatalf("%s: case %q has no ARI (written by an older metrics_compare.py?)", *in, c.Name)
		}
		report(c.Name, "ari", *sk.ARI, g.ari, false)
	}
	fmt.Printf("\n%d labeling pairs (scikit-learn %s), tolerance %g\n", len(data.Cases), data.SklearnVersion, *tol)
	for _, m := range order {
		fmt.Printf("  largest |difference| %-16s %.3g\n", m, worst[m])
	}
	if undefined > 0 {
		fmt.Printf("  %d AMI values are 0/0 in exact arithmetic and were not compared\n", undefined)
	}
	fmt.Printf("time for h/c/V + 4 NMI + 4 AMI + ARI on all pairs: scikit-learn %.3f s, semitopic %.3f s (%.1f× faster)\n",
		data.SklearnSeconds, goSeconds, data.SklearnSeconds/goSeconds)
	if failed > 0 {
		fmt.Printf("%d values differ by more than %g\n", failed, *tol)
		os.Exit(1)
	}
	fmt.Println("all values agree")
}
