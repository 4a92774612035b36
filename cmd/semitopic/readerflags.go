package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/semitopic/semitopic/corpus"
)

// readerFlags choose a corpus format and its options. Options that do not
// apply to the chosen format are an error rather than silently ignored.
type readerFlags struct {
	format     string
	subset     string
	remove     string
	categories string
	all        bool
	labelField string
	textCol    string
	labelCol   string
	idCol      string
	splitCol   string
	labelSep   string
	noHeader   bool
	lazyQuotes bool
	exts       string
	vocab      string
	labels     string
	maxDoc     string
	maxInput   string
	maxRatio   float64
}

// limitFlags names the flag that raises each of the readers' limits.
var limitFlags = map[string]string{
	corpus.LimitDocSize:   "max-doc-size",
	corpus.LimitInputSize: "max-input-size",
	corpus.LimitRatio:     "max-ratio",
}

// register adds the reader flags to fs. Commands that write a vocabulary or
// labels file themselves pass withMatrixFiles false and keep --vocab and
// --labels for their outputs.
func (r *readerFlags) register(fs *pflag.FlagSet, withMatrixFiles bool) {
	var names []string
	for _, f := range corpus.Formats() {
		names = append(names, f.Name)
	}
	fs.StringVarP(&r.format, "format", "f", "", "input format: "+strings.Join(names, ", ")+` (see "semitopic formats"); PATH "-" reads standard input`)
	fs.StringVar(&r.subset, "subset", "all", "documents to use: all, train or test (by the corpus's split)")
	fs.StringVar(&r.remove, "remove", "", "20ng: parts of messages to remove, comma separated: headers, footers, quotes (as scikit-learn)")
	fs.StringVar(&r.categories, "categories", "", "20ng: newsgroups to keep, comma separated")
	fs.BoolVar(&r.all, "all", false, "reuters-sgml: all 21,578 documents instead of the ModApte split")
	fs.StringVar(&r.labelField, "label-field", "", "reuters-sgml: labels from topics (default), places, people, orgs or exchanges")
	fs.StringVar(&r.textCol, "text-col", "", "csv/tsv: text column name (or number with --no-header); default text")
	fs.StringVar(&r.labelCol, "label-col", "", "csv/tsv: label column; default label or labels when present")
	fs.StringVar(&r.idCol, "id-col", "", "csv/tsv: ID column; default id when present")
	fs.StringVar(&r.splitCol, "split-col", "", "csv/tsv: split column (train/test); default split when present")
	fs.StringVar(&r.labelSep, "label-sep", "", "csv/tsv: separator of several labels in the label field, such as ';'")
	fs.BoolVar(&r.noHeader, "no-header", false, "csv/tsv: the first row is a document; give columns by number")
	fs.BoolVar(&r.lazyQuotes, "lazy-quotes", false, "csv/tsv: tolerate stray quotes")
	fs.StringVar(&r.exts, "ext", "", "dir: only files with these extensions, comma separated (.txt)")
	if withMatrixFiles {
		fs.StringVar(&r.vocab, "vocab", "", "mtx/uci: vocabulary file (default vocab.txt, or vocab.NAME.txt for uci, beside PATH)")
		fs.StringVar(&r.labels, "labels", "", "mtx: labels file (default labels.txt beside PATH when present)")
	}
	fs.StringVar(&r.maxDoc, "max-doc-size", corpus.FormatSize(corpus.DefaultMaxDocSize), "largest document read: a file of a folder or archive, a jsonl line, a csv record (k, M, G units)")
	fs.StringVar(&r.maxInput, "max-input-size", corpus.FormatSize(corpus.DefaultMaxInputSize), "most data decompressed from one archive (.zip, .tar.gz) or compressed file (.gz)")
	fs.Float64Var(&r.maxRatio, "max-ratio", corpus.DefaultMaxRatio, "highest compression ratio of an archive or compressed file (decompressed size / compressed size, checked past 4 MiB)")
}

// limits returns the readers' limits the flags give.
func (r *readerFlags) limits() (corpus.Limits, error) {
	var l corpus.Limits
	var err error
	if l.MaxDocSize, err = corpus.ParseSize(r.maxDoc); err != nil || l.MaxDocSize < 1 {
		return l, fmt.Errorf("--max-doc-size: %q: want a size such as 64M", r.maxDoc)
	}
	if l.MaxInputSize, err = corpus.ParseSize(r.maxInput); err != nil || l.MaxInputSize < 1 {
		return l, fmt.Errorf("--max-input-size: %q: want a size such as 64G", r.maxInput)
	}
	if l.MaxRatio = r.maxRatio; !(l.MaxRatio >= 1) || math.IsInf(l.MaxRatio, 0) {
		return l, fmt.Errorf("--max-ratio: %v: want a finite number ≥ 1", r.maxRatio)
	}
	return l, nil
}

// limitHint adds to an error of a reader's limit the flag that raises it.
func limitHint(err error) error {
	var le *corpus.LimitError
	if errors.As(err, &le) {
		if flag, ok := limitFlags[le.Limit]; ok {
			return fmt.Errorf("%w (raise the limit with --%s)", err, flag)
		}
	}
	return err
}

// printNotes writes what a reader noted about the corpus (files decoded
// as Latin-1 or UTF-16, files skipped, entries summed) to w, one "note:"
// line each: every command that reads a corpus says it this way.
func printNotes(w io.Writer, notes []string) {
	for _, n := range notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
}

// reader builds the Reader the flags describe.
func (r *readerFlags) reader(cmd *cobra.Command) (corpus.Reader, error) {
	if r.format == "" {
		return nil, fmt.Errorf("--format is required")
	}
	rd, err := corpus.NewReader(r.format)
	if err != nil {
		return nil, fmt.Errorf("--format: %w", err)
	}
	lim, err := r.limits()
	if err != nil {
		return nil, err
	}
	if _, shards := rd.(*corpus.Shards); !shards {
		if err := corpus.SetLimits(rd, lim); err != nil {
			return nil, err
		}
	} else {
		for _, name := range []string{"max-doc-size", "max-input-size", "max-ratio"} {
			if cmd.Flags().Changed(name) {
				return nil, fmt.Errorf("--%s does not apply to the shards format (its blocks are checksummed and bounded by their manifest)", name)
			}
		}
	}
	used := map[string]bool{}
	set := func(name string) bool {
		if cmd.Flags().Changed(name) {
			used[name] = true
			return true
		}
		return false
	}
	split := func(s string) []string {
		var out []string
		for _, x := range strings.Split(s, ",") {
			if x = strings.TrimSpace(x); x != "" {
				out = append(out, x)
			}
		}
		return out
	}
	switch x := rd.(type) {
	case *corpus.Newsgroups:
		if set("remove") {
			for _, part := range split(r.remove) {
				switch part {
				case "headers":
					x.RemoveHeaders = true
				case "footers":
					x.RemoveFooters = true
				case "quotes":
					x.RemoveQuotes = true
				default:
					return nil, fmt.Errorf("--remove: unknown part %q (want headers, footers, quotes)", part)
				}
			}
		}
		if set("categories") {
			x.Categories = split(r.categories)
		}
		if set("subset") && r.subset != "all" {
			x.Subset = r.subset
		}
	case *corpus.ReutersSGML:
		if set("all") {
			x.All = r.all
		}
		if set("label-field") {
			x.LabelField = r.labelField
		}
	case *corpus.CSV:
		if set("text-col") {
			x.TextColumn = r.textCol
		}
		if set("label-col") {
			x.LabelColumn = r.labelCol
		}
		if set("id-col") {
			x.IDColumn = r.idCol
		}
		if set("split-col") {
			x.SplitColumn = r.splitCol
		}
		if set("label-sep") {
			x.LabelSep = r.labelSep
		}
		if set("no-header") {
			x.NoHeader = r.noHeader
		}
		if set("lazy-quotes") {
			x.LazyQuotes = r.lazyQuotes
		}
	case *corpus.Dir:
		if set("ext") {
			x.Extensions = split(r.exts)
		}
	case *corpus.MTX:
		if !r.matrixFlags(cmd) {
			break
		}
		if set("vocab") {
			x.Vocab = r.vocab
		}
		if set("labels") {
			x.Labels = r.labels
		}
	case *corpus.UCI:
		if !r.matrixFlags(cmd) {
			break
		}
		if set("vocab") {
			x.Vocab = r.vocab
		}
	}
	for _, name := range []string{"remove", "categories", "all", "label-field", "text-col", "label-col", "id-col", "split-col", "label-sep", "no-header", "lazy-quotes", "ext", "vocab", "labels"} {
		if (name == "vocab" || name == "labels") && !r.matrixFlags(cmd) {
			continue
		}
		if cmd.Flags().Changed(name) && !used[name] {
			return nil, fmt.Errorf("--%s does not apply to the %s format", name, r.format)
		}
	}
	return rd, nil
}

// matrixFlags reports whether --vocab and --labels are reader flags in cmd.
func (r *readerFlags) matrixFlags(cmd *cobra.Command) bool {
	f := cmd.Flags().Lookup("vocab")
	return f != nil && strings.HasPrefix(f.Usage, "mtx/uci")
}

// read loads the corpus at path, applies --subset and prints the reader's
// notes on standard error.
func (r *readerFlags) read(ctx context.Context, cmd *cobra.Command, path string) (*corpus.Corpus, error) {
	c, err := r.readQuiet(ctx, cmd, path)
	if err != nil {
		return nil, err
	}
	printNotes(cmd.ErrOrStderr(), c.Notes)
	return c, nil
}

// readQuiet is read without printing the notes, for a command that
// reports them itself.
func (r *readerFlags) readQuiet(ctx context.Context, cmd *cobra.Command, path string) (*corpus.Corpus, error) {
	rd, err := r.reader(cmd)
	if err != nil {
		return nil, err
	}
	if r.format == "shards" && path != corpus.Stdin {
		if err := recoverShards(cmd, path); err != nil {
			return nil, err
		}
	}
	split, err := r.split()
	if err != nil {
		return nil, err
	}
	var c *corpus.Corpus
	if path == corpus.Stdin {
		path = "standard input"
		c, err = corpus.ReadStream(ctx, rd, path, cmd.InOrStdin())
	} else {
		c, err = rd.Read(ctx, path)
	}
	if err == nil {
		c, err = c.Select(split, path)
	}
	if err != nil {
		return nil, r.hint(err)
	}
	return c, nil
}

// split returns the split --subset asks for: SplitNone for all.
func (r *readerFlags) split() (corpus.Split, error) {
	switch r.subset {
	case "all", "":
		return corpus.SplitNone, nil
	case "train", "test":
		return corpus.ParseSplit(r.subset)
	}
	return corpus.SplitNone, fmt.Errorf("--subset: want all, train or test, not %q", r.subset)
}

// hint adds to an error of reading a corpus the flag that changes what
// failed: the flag that raises a reader's limit, --subset for a split
// asked of a corpus without one.
func (r *readerFlags) hint(err error) error {
	err = limitHint(err)
	if errors.Is(err, corpus.ErrNoSplit) {
		return fmt.Errorf("--subset %s: %w", r.subset, err)
	}
	return err
}
