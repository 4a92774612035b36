package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/semitopic/semitopic/chart"
	"github.com/semitopic/semitopic/internal/atomicfile"
)

// line is one fit of results.jsonl (a result, or a failed fit).
type line struct {
	result
	Failed bool `json:"failed"`
	// Exit is a failed fit's exit status (137: killed, here by the
	// kernel for want of memory).
	Exit int `json:"exit"`
}

// report writes the Markdown report of the fits in path to w, with the
// output of side.sh (when side is not empty) verbatim, and the chart of
// time per non-zero against non-zeros to svg.
func report(path, svg, side string, w io.Writer) error {
	fits, err := readFits(path)
	if err != nil {
		return err
	}
	find := func(kind, mode string, docs int) *line {
		for i := range fits {
			if fits[i].Kind == kind && fits[i].Mode == mode && fits[i].Docs == docs {
				return &fits[i]
			}
		}
		return nil
	}
	var sizes []int
	for _, l := range fits {
		if l.Docs != pubmedDocs && !slices.Contains(sizes, l.Docs) {
			sizes = append(sizes, l.Docs)
		}
	}
	slices.Sort(sizes)
	fmt.Fprint(w, reportHead)
	var series []chart.Series
	for _, kind := range []string{"nmf", "tsnmf", "corex", "lda"} {
		fmt.Fprintf(w, "\n### %s\n\n", kindTitle[kind])
		fmt.Fprintln(w, "| documents | non-zeros | shards | in memory: s/iteration | peak MiB | out of core: s/iteration | peak MiB | out of core / in memory | out of core: s per 10⁸ non-zeros |")
		fmt.Fprintln(w, "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
		perNNZ := map[string][]float64{}
		xs := map[string][]float64{}
		for _, n := range sizes {
			mem, ooc := find(kind, "mem", n), find(kind, "ooc", n)
			if mem == nil && ooc == nil {
				continue
			}
			ref := ooc
			if ref == nil || ref.Failed {
				ref = mem
			}
			cells := []string{fmt.Sprint(n), "", "", "", "", "", "", "", ""}
			if ref != nil && !ref.Failed {
				cells[1], cells[2] = fmt.Sprint(ref.NNZ), fmt.Sprint(ref.Shards)
			}
			cell := func(l *line, at int) {
				switch {
				case l == nil:
					cells[at], cells[at+1] = "not run", ""
				case l.Failed && l.Exit == 137:
					cells[at], cells[at+1] = "killed: out of memory", ""
				case l.Failed:
					cells[at], cells[at+1] = fmt.Sprintf("failed (exit %d)", l.Exit), ""
				default:
					cells[at], cells[at+1] = fmt.Sprintf("%.2f", l.SecPerIter), fmt.Sprintf("%.0f", l.PeakMiB)
					per := l.SecPerIter / float64(l.NNZ) * 1e8
					perNNZ[l.Mode] = append(perNNZ[l.Mode], per)
					xs[l.Mode] = append(xs[l.Mode], float64(l.NNZ))
				}
			}
			cell(mem, 3)
			cell(ooc, 5)
			if mem != nil && ooc != nil && !mem.Failed && !ooc.Failed {
				cells[7] = fmt.Sprintf("%.2f×", ooc.SecPerIter/mem.SecPerIter)
			}
			if ooc != nil && !ooc.Failed {
				cells[8] = fmt.Sprintf("%.2f", ooc.SecPerIter/float64(ooc.NNZ)*1e8)
			}
			fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
		}
		for _, mode := range []string{"mem", "ooc"} {
			v := perNNZ[mode]
			if len(v) < 2 {
				continue
			}
			lo, hi := slices.Min(v), slices.Max(v)
			mid := (lo + hi) / 2
			fmt.Fprintf(w, "\n%s, %s: time per non-zero from %.2f to %.2f s per 10⁸ non-zeros over %.3g to %.3g non-zeros: within ±%.0f%% of their midpoint (goal: ±20%%).\n",
				kindTitle[kind], modeTitle[mode], lo, hi, slices.Min(xs[mode]), slices.Max(xs[mode]), 100*(hi-lo)/2/mid)
			// Relative to the 300,000-document fit (or the largest below
			// it), so that every kind is on one scale: 1 is linear.
			ref := v[0]
			for q, x := range xs[mode] {
				if x <= 7e7 {
					ref = v[q]
				}
			}
			rel := make([]float64, len(v))
			for q := range v {
				rel[q] = v[q] / ref
			}
			series = append(series, chart.Series{Name: kindTitle[kind] + ", " + modeTitle[mode], X: xs[mode], Y: rel, Dashed: mode == "mem"})
		}
	}
	if pm := find("nmf", "ooc", pubmedDocs); pm != nil && !pm.Failed {
		fmt.Fprintf(w, "\n### The largest corpus: PubMed's shape, out of core\n\n%d documents × %d terms, %d non-zeros in %d shards; NMF (k = %d): %.1f s per iteration, peak memory %.0f MiB (%.2f GiB; goal ≤ 4 GiB), %.0f s for the whole fit of %d iterations.\n",
			pm.Docs, pm.Terms, pm.NNZ, pm.Shards, pm.K, pm.SecPerIter, pm.PeakMiB, pm.PeakMiB/1024, pm.Total, pm.Iterations)
	}
	if svg != "" && len(series) > 0 {
		b, err := chart.Render(chart.LineChart{Title: "Time per iteration per non-zero, relative to the 300,000-document corpus (1: linear)",
			XLabel: "non-zeros", YLabel: "time per non-zero / its value at 300k documents", Series: series, LogX: true,
			YMin: 0, YMax: 3}, chart.SVG, chart.Size{Width: 18, Height: 12})
		if err != nil {
			return err
		}
		if err := atomicfile.WriteFile(svg, func(w io.Writer) error { _, err := w.Write(b); return err }); err != nil {
			return err
		}
		fmt.Fprintf(w, "\n![time per iteration per non-zero, relative to the 300,000-document corpus, against non-zeros](%s)\n", filepath.Base(svg))
	}
	if side != "" {
		b, err := os.ReadFile(side)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "\n## Side by side at 300,000 documents\n\nThe output of `COREX_REF=DIR bench/scale/side.sh DATA_DIR`, verbatim:\n\n```\n%s```\n", b)
	}
	return nil
}

// readFits reads the fits of a JSON-lines file, skipping blank lines.
func readFits(path string) ([]line, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var fits []line
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var l line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		fits = append(fits, l)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return fits, nil
}

// reportHead opens the report.
const reportHead = `# Scale: time per iteration and peak memory, in memory and out of core

Each row is one fit in its own process (` + "`go run ./bench/scale`" + `), on a synthetic corpus of
NYTimes-like density (` + "`semitopic synth --preset nytimes --docs N --classes 20 --format shards`" + `:
102,660 terms, about 233 distinct terms per document, 20 label classes, shards of 65,536
documents), k = 50 topics, both cores. *In memory* reads the shards into one matrix and runs
the package's ` + "`Fit`" + `; *out of core* runs its ` + "`FitBlocks`" + ` over the shards, with the
documents' state in a folder on the same disk (written and synced at every pass, with a
checkpoint). Time per iteration is the wall time between the first and the last iteration's
progress reports divided by the iterations between them, so that reading the corpus and the
start are left out (out of core, its first passes: the scan and the start); peak memory is the
process's maximum resident set (VmHWM), everything included. NMF and TS-NMF: Frobenius loss,
random-acol (TS-NMF: label-mean) start, 3 iterations; CorEx: 3 iterations of one restart; LDA:
batch variational Bayes, 2 passes (an LDA pass's cost depends on how many E-step iterations
its documents need, which is not proportional to the non-zeros).

Commands (about 45 minutes on the 2-core machine):

` + "```" + `sh
bench/scale/run.sh DATA_DIR DATA_DIR/results.jsonl        # the grid, resumable; ~30 GB of disk
COREX_REF=DIR bench/scale/side.sh DATA_DIR/side > side.log  # the 300k comparison below
go run ./bench/scale -report DATA_DIR/results.jsonl -side side.log -chart docs/results/scale.svg > docs/results/scale.md
` + "```" + `

The fits' JSON lines, as the grid wrote them, are in [scale.jsonl](scale.jsonl).

Machine: 2-core AMD EPYC virtual machine, 23 GiB of memory, no swap, linux/amd64, go1.26.8. No
machine with more cores was lent to this work, so the multi-core scaling at 1 to 16 cores
that issue 15 asks for where one is at hand is not measured.
`

// pubmedDocs is the size of the PubMed-shaped corpus, reported apart.
const pubmedDocs = 8_200_000

var kindTitle = map[string]string{"nmf": "NMF", "tsnmf": "TS-NMF", "corex": "CorEx", "lda": "LDA"}
var modeTitle = map[string]string{"mem": "in memory", "ooc": "out of core"}
