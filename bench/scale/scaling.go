package main

import (
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
)

// scalingCores are the columns of the scaling table.
var scalingCores = []int{1, 2, 4, 8, 16}

// scalingTable prints the Markdown table of the fits in path (scaling.sh
// writes them): for each kind and mode, the seconds per iteration at 1,
// 2, 4, 8 and 16 cores, with the parallel efficiency t₁ / (c·t_c) beside
// each. Repeated fits of one kind, mode and core count give their median.
// A core count without a fit is a dash.
func scalingTable(path string, w io.Writer) error {
	fits, err := readFits(path)
	if err != nil {
		return err
	}
	type key struct {
		kind, mode string
		procs      int
	}
	times := map[key][]float64{}
	var docs []int
	for _, l := range fits {
		if l.Failed {
			continue
		}
		if l.Procs < 1 {
			return fmt.Errorf("%s: a %s %s fit without its number of cores (procs)", path, l.Kind, l.Mode)
		}
		k := key{l.Kind, l.Mode, l.Procs}
		times[k] = append(times[k], l.SecPerIter)
		if !slices.Contains(docs, l.Docs) {
			docs = append(docs, l.Docs)
		}
	}
	if len(docs) != 1 {
		return fmt.Errorf("%s: fits of %d corpus sizes %v, want one", path, len(docs), docs)
	}
	median := func(v []float64) float64 {
		v = slices.Clone(v)
		slices.Sort(v)
		if n := len(v); n%2 == 0 {
			return (v[n/2-1] + v[n/2]) / 2
		}
		return v[len(v)/2]
	}
	head := []string{"kind", "mode"}
	align := []string{"---", "---"}
	for _, c := range scalingCores {
		head = append(head, fmt.Sprintf("%d: s/iteration", c), "efficiency")
		align = append(align, "---:", "---:")
	}
	fmt.Fprintf(w, "| %s |\n| %s |\n", strings.Join(head, " | "), strings.Join(align, " | "))
	for _, kind := range []string{"nmf", "tsnmf", "corex", "lda"} {
		for _, mode := range []string{"mem", "ooc"} {
			t1, one := times[key{kind, mode, 1}]
			cells := []string{kindTitle[kind], modeTitle[mode]}
			seen := false
			for _, c := range scalingCores {
				v, ok := times[key{kind, mode, c}]
				if !ok {
					cells = append(cells, "–", "")
					continue
				}
				seen = true
				tc := median(v)
				eff := ""
				if one {
					eff = fmt.Sprintf("%.0f%%", 100*median(t1)/(float64(c)*tc))
				}
				cells = append(cells, fmt.Sprintf("%.3f", tc), eff)
			}
			if seen {
				fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
			}
		}
	}
	fmt.Fprintf(w, "\n%d documents; efficiency is t₁ / (cores · t_cores). This machine has %d logical CPUs; a dash is a core count not run.\n", docs[0], runtime.NumCPU())
	return nil
}
