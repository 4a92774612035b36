package main

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/semitopic/semitopic/corpus"
)

func newCorpusCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "corpus",
		Short: "Inspect corpora",
	}
	cmd.AddCommand(newCorpusStatsCmd())
	return cmd
}

// corpusStats is what "corpus stats" reports; it is also its JSON output.
type corpusStats struct {
	Name       string         `json:"name"`
	Format     string         `json:"format"`
	Documents  int            `json:"documents"`
	Splits     map[string]int `json:"splits,omitempty"`
	Labeled    int            `json:"labeled"`
	Labels     []labelCount   `json:"labels"`
	Characters int            `json:"characters,omitempty"`
	Pipeline   string         `json:"pipeline"`
	Tokens     int            `json:"tokens"`
	Terms      int            `json:"terms"`
	Vocabulary int            `json:"vocabulary"`
	NonZeros   int            `json:"nonzeros"`
	Dropped    int            `json:"dropped"`
	EmptyDocs  int            `json:"empty_documents"`
	Notes      []string       `json:"notes,omitempty"`
	ReadTime   float64        `json:"read_seconds"`
	VecTime    float64        `json:"vectorize_seconds"`
}

type labelCount struct {
	Label     string `json:"label"`
	Documents int    `json:"documents"`
}

func newCorpusStatsCmd() *cobra.Command {
	var rf readerFlags
	var pf pipelineFlags
	var asJSON bool
	var maxLabels int
	cmd := &cobra.Command{
		Use:   "stats --format F PATH",
		Short: "Count documents, labels, splits, tokens and vocabulary of a corpus",
		Long: `stats reads a corpus and reports its documents, labels (with counts), splits,
and what the text pipeline makes of it: tokens, terms, vocabulary size and
non-zeros after the pipeline flags, and the time taken. For an
already-vectorized corpus (mtx, uci) it reports the matrix as it is.`,
		Example: `  semitopic corpus stats --format 20ng --remove headers,footers,quotes ../shared/data/20news-bydate/20news-bydate.tar.gz
  semitopic corpus stats --format csv --text-col body --label-col topic reviews.csv`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := computeStats(cmd, &rf, &pf, args[0])
			if err != nil {
				return err
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(st)
			}
			printStats(cmd.OutOrStdout(), st, maxLabels)
			return nil
		},
	}
	rf.register(cmd.Flags(), true)
	pf.register(cmd.Flags())
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the statistics as JSON")
	cmd.Flags().IntVar(&maxLabels, "max-labels", 25, "labels to list (the most frequent first; 0 = all)")
	return cmd
}

func computeStats(cmd *cobra.Command, rf *readerFlags, pf *pipelineFlags, path string) (*corpusStats, error) {
	ctx := cmd.Context()
	t0 := time.Now()
	c, err := rf.readQuiet(ctx, cmd, path)
	if err != nil {
		return nil, err
	}
	st := &corpusStats{Name: c.Name, Format: rf.format, Documents: len(c.Docs), Splits: map[string]int{}, Notes: c.Notes}
	st.ReadTime = time.Since(t0).Seconds()
	for i := range c.Docs {
		d := &c.Docs[i]
		if s := d.Split.String(); s != "" {
			st.Splits[s]++
		}
		if d.Labeled() {
			st.Labeled++
		}
		st.Characters += len([]rune(d.Text))
	}
	names, counts := c.Labels()
	for i, n := range names {
		st.Labels = append(st.Labels, labelCount{n, counts[i]})
	}
	sort.SliceStable(st.Labels, func(a, b int) bool { return st.Labels[a].Documents > st.Labels[b].Documents })

	if c.Matrix != nil {
		for _, name := range []string{"preset", "tokens", "case", "morph", "weight", "max-features", "min-df", "max-df", "ngrams"} {
			if cmd.Flags().Changed(name) {
				return nil, fmt.Errorf("--%s: the %s format is already vectorized; pipeline flags do not apply", name, rf.format)
			}
		}
		x := c.Matrix.X
		st.Pipeline = "none (already vectorized)"
		st.Vocabulary, st.NonZeros = x.Cols, x.NNZ()
		st.Tokens = int(x.Sum())
		for _, n := range x.RowNNZ() {
			if n == 0 {
				st.EmptyDocs++
			}
		}
		return st, nil
	}
	if err := pf.detectLanguage(cmd, c.Docs); err != nil {
		return nil, err
	}
	pl, err := pf.build(cmd)
	if err != nil {
		return nil, err
	}
	v, err := pl.New()
	if err != nil {
		return nil, err
	}
	st.Pipeline = pl.String()
	t1 := time.Now()
	bar := newProgressBar(cmd.ErrOrStderr(), "analysing", len(c.Docs))
	v.Progress = func(done, _ int) { bar.set(done) }
	res, err := v.FitTransform(ctx, c.Docs)
	bar.finish()
	if err != nil {
		return nil, err
	}
	st.VecTime = time.Since(t1).Seconds()
	st.Tokens, st.Terms = res.Tokens, res.Terms
	st.Vocabulary, st.NonZeros = res.X.Cols, res.X.NNZ()
	st.Dropped, st.EmptyDocs = len(res.Dropped), res.EmptyRows
	return st, nil
}

func printStats(w io.Writer, st *corpusStats, maxLabels int) {
	fmt.Fprintf(w, "corpus      %s\n", st.Name)
	fmt.Fprintf(w, "documents   %d", st.Documents)
	if len(st.Splits) > 0 {
		var parts []string
		for _, s := range []string{"train", "test"} {
			if n, ok := st.Splits[s]; ok {
				parts = append(parts, fmt.Sprintf("%s %d", s, n))
			}
		}
		if other := st.Documents - st.Splits["train"] - st.Splits["test"]; other > 0 {
			parts = append(parts, fmt.Sprintf("no split %d", other))
		}
		fmt.Fprintf(w, " (%s)", strings.Join(parts, ", "))
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "labeled     %d documents, %d distinct labels", st.Labeled, len(st.Labels))
	if st.Labeled > 0 {
		total := 0
		for _, l := range st.Labels {
			total += l.Documents
		}
		fmt.Fprintf(w, ", %.2f labels per labeled document", float64(total)/float64(st.Labeled))
	}
	fmt.Fprintln(w)
	if len(st.Labels) > 0 {
		n := len(st.Labels)
		if maxLabels > 0 && n > maxLabels {
			n = maxLabels
		}
		var parts []string
		for _, l := range st.Labels[:n] {
			parts = append(parts, fmt.Sprintf("%s %d", l.Label, l.Documents))
		}
		more := ""
		if n < len(st.Labels) {
			more = fmt.Sprintf(", … %d more (--max-labels 0 lists all)", len(st.Labels)-n)
		}
		fmt.Fprintf(w, "labels      %s%s\n", strings.Join(parts, ", "), more)
	}
	fmt.Fprintf(w, "pipeline    %s\n", st.Pipeline)
	if st.Characters > 0 {
		fmt.Fprintf(w, "characters  %d\n", st.Characters)
	}
	if st.Terms > 0 {
		fmt.Fprintf(w, "tokens      %d (%.1f per document)", st.Tokens, float64(st.Tokens)/float64(max(st.Documents-st.Dropped, 1)))
		if st.Terms != st.Tokens {
			fmt.Fprintf(w, ", %d terms with n-grams", st.Terms)
		}
		fmt.Fprintln(w)
	} else {
		fmt.Fprintf(w, "tokens      %d (sum of the matrix)\n", st.Tokens)
	}
	fmt.Fprintf(w, "vocabulary  %d terms, %d non-zeros", st.Vocabulary, st.NonZeros)
	if st.Dropped > 0 {
		fmt.Fprintf(w, "; %d documents dropped by filters", st.Dropped)
	}
	if st.EmptyDocs > 0 {
		fmt.Fprintf(w, "; %d documents without any term", st.EmptyDocs)
	}
	fmt.Fprintln(w)
	for _, n := range st.Notes {
		fmt.Fprintf(w, "note        %s\n", n)
	}
	fmt.Fprintf(w, "time        read %.2fs, pipeline %.2fs\n", st.ReadTime, st.VecTime)
}

// formatsFooter is what "formats" says about every format after the list.
var formatsFooter = `
Text is read as UTF-8, or as UTF-16 when a file starts with its byte order
mark, or else as Latin-1 when it is not valid UTF-8; a note names every file
not read as UTF-8. A file that is not text (an archive inside an archive, an
image, anything with NUL bytes) is never read as text: the folder layouts
(dir, bbc, 20ng) skip it with a note naming it, the other formats refuse it.

Limits (every format but shards), so that a decompression bomb or a damaged
file stops early with an error naming the archive and member, or the file
and line; every command that reads a corpus takes the flags that raise them:
  --max-doc-size    one document: a file of a folder or archive, a jsonl
                    line, a csv record (default ` + corpus.FormatSize(corpus.DefaultMaxDocSize) + `; the largest of
                    20 Newsgroups, Reuters, BBC and Brown is 1.5 MiB)
  --max-input-size  what one archive (.zip, .tar.gz) or compressed matrix
                    (.gz) decompresses to (default ` + corpus.FormatSize(corpus.DefaultMaxInputSize) + `)
  --max-ratio       its size decompressed over its size compressed, checked
                    past 4 MiB (default ` + strconv.FormatFloat(corpus.DefaultMaxRatio, 'g', -1, 64) + `; text compresses 2.5 to 4 times)
`

func newFormatsCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "formats",
		Short: "List the input formats with an example of each",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			w := cmd.OutOrStdout()
			for _, f := range corpus.Formats() {
				fmt.Fprintf(w, "%s\n  %s\n", f.Name, f.Description)
				for _, line := range strings.Split(f.Example, "\n") {
					fmt.Fprintf(w, "    %s\n", line)
				}
			}
			fmt.Fprint(w, formatsFooter)
			return nil
		},
	}
}
