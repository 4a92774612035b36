package synth

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/semitopic/semitopic/internal/atomicfile"
	"github.com/semitopic/semitopic/shard"
)

// Formats names the output formats of Write.
var Formats = []string{"mtx", "uci", "jsonl", "shards"}

// Stats describes a written corpus.
type Stats struct {
	Docs, Terms int
	// NNZ is the number of (document, term) pairs, Tokens the total length
	// and Labeled the number of labeled documents.
	NNZ, Tokens, Labeled int
	// Files are the files written (for shards, the folder and what it
	// holds).
	Files []string
}

// rankSyllables spell the digits 0 to 9 of a term's rank in TermName.
var rankSyllables = [10]string{"ba", "ki", "du", "fe", "go", "la", "mi", "nu", "pe", "ro"}

// TermName is the vocabulary's name for term t: "w" and its frequency rank
// from 1, one syllable per decimal digit (0 ba, 1 ki, 2 du, 3 fe, 4 go,
// 5 la, 6 mi, 7 nu, 8 pe, 9 ro): "wki" is the most frequent term, "wduki"
// the 21st. The names are made of letters only, at least three, and are
// neither stopwords nor changed by the lemmatizer, so that the default
// text pipeline reads the jsonl format back to the same terms.
func TermName(t int) string {
	var b strings.Builder
	b.WriteByte('w')
	for _, d := range strconv.Itoa(t + 1) {
		b.WriteString(rankSyllables[d-'0'])
	}
	return b.String()
}

// ClassName is the name of class c: "c" and c from 1.
func ClassName(c int) string { return "c" + strconv.Itoa(c+1) }

// Write draws the corpus of g and writes it to path in format:
//
//   - "mtx": a MatrixMarket documents × terms integer matrix at path, with
//     vocab.txt and labels.txt beside it (the layout the mtx reader takes);
//   - "uci": the UCI bag-of-words format, path named docword.NAME.txt, with
//     vocab.NAME.txt beside it (the format has no labels);
//   - "jsonl": one JSON object per document with its id, its text (each
//     term repeated as often as it occurs) and its label when labeled;
//   - "shards": a sharded corpus in the folder path (package shard), with
//     its vocabulary and labels, drawn once.
//
// Documents are streamed: memory does not grow with the corpus. The
// matrix formats declare the number of non-zeros in their header, so the
// corpus is drawn twice (the draws are deterministic). Every file is
// written atomically: an error or cancellation leaves what was there.
func Write(ctx context.Context, g *Generator, format, path string) (Stats, error) {
	c := g.Config()
	st := Stats{Docs: c.Docs, Terms: c.Terms}
	dir := filepath.Dir(path)
	switch format {
	case "mtx", "uci":
		vocabPath := filepath.Join(dir, "vocab.txt")
		if format == "uci" {
			base := filepath.Base(path)
			name, ok := strings.CutPrefix(base, "docword.")
			if !ok || !strings.HasSuffix(name, ".txt") {
				return st, fmt.Errorf("synth: a uci corpus is named docword.NAME.txt, not %s", base)
			}
			vocabPath = filepath.Join(dir, "vocab."+name)
		}
		if err := g.Each(ctx, func(_ int, d *Doc) error { st.NNZ += len(d.Terms); return nil }); err != nil {
			return st, err
		}
		var labels *atomicfile.File
		if format == "mtx" {
			var err error
			if labels, err = atomicfile.Create(filepath.Join(dir, "labels.txt")); err != nil {
				return st, err
			}
			defer labels.Abort()
		}
		lw := bufio.NewWriterSize(nopWriter{}, 1)
		if labels != nil {
			lw = bufio.NewWriterSize(labels, 1<<16)
		}
		err := writeFile(path, func(w *bufio.Writer) error {
			if format == "mtx" {
				fmt.Fprintf(w, "%%%%MatrixMarket matrix coordinate integer general\n%% semitopic synth: %s\n%d %d %d\n", describe(c), c.Docs, c.Terms, st.NNZ)
			} else {
				fmt.Fprintf(w, "%d\n%d\n%d\n", c.Docs, c.Terms, st.NNZ)
			}
			var line []byte
			return g.Each(ctx, func(i int, d *Doc) error {
				for p, t := range d.Terms {
					line = strconv.AppendInt(line[:0], int64(i+1), 10)
					line = append(line, ' ')
					line = strconv.AppendInt(line, int64(t)+1, 10)
					line = append(line, ' ')
					line = strconv.AppendInt(line, int64(d.Counts[p]), 10)
					line = append(line, '\n')
					if _, err := w.Write(line); err != nil {
						return err
					}
				}
				st.Tokens += d.Tokens
				if d.Label >= 0 {
					st.Labeled++
					lw.WriteString(ClassName(d.Label))
				}
				return lw.WriteByte('\n')
			})
		})
		if err != nil {
			return st, err
		}
		st.Files = append(st.Files, path)
		if err := writeFile(vocabPath, func(w *bufio.Writer) error {
			for t := range c.Terms {
				w.WriteString(TermName(t))
				w.WriteByte('\n')
			}
			return nil
		}); err != nil {
			return st, err
		}
		st.Files = append(st.Files, vocabPath)
		if labels != nil {
			if err := lw.Flush(); err != nil {
				return st, fmt.Errorf("writing %s: %w", labels.Name(), err)
			}
			if err := labels.Commit(); err != nil {
				return st, err
			}
			st.Files = append(st.Files, labels.Name())
		}
		return st, nil
	case "shards":
		vocab := make([]string, c.Terms)
		for t := range vocab {
			vocab[t] = TermName(t)
		}
		w, err := shard.Create(path, c.Terms, shard.Options{RowsPerShard: c.RowsPerShard, Vocab: vocab, Labels: true})
		if err != nil {
			return st, err
		}
		err = g.Each(ctx, func(_ int, d *Doc) error {
			var labels []string
			if d.Label >= 0 {
				labels = []string{ClassName(d.Label)}
				st.Labeled++
			}
			st.NNZ += len(d.Terms)
			st.Tokens += d.Tokens
			return w.Add(d.Terms, d.Counts, labels)
		})
		if err != nil {
			w.Abort()
			return st, err
		}
		m, err := w.Close()
		if err != nil {
			return st, err
		}
		st.Files = append(st.Files, fmt.Sprintf("%s (%d shards with %s, %s and %s)", path, len(m.Shards), shard.ManifestFile, shard.VocabFile, shard.LabelsFile))
		return st, nil
	case "jsonl":
		type record struct {
			ID     string   `json:"id"`
			Text   string   `json:"text"`
			Labels []string `json:"labels,omitempty"`
		}
		err := writeFile(path, func(w *bufio.Writer) error {
			enc := json.NewEncoder(w)
			var text strings.Builder
			return g.Each(ctx, func(i int, d *Doc) error {
				text.Reset()
				for p, t := range d.Terms {
					for range int(d.Counts[p]) {
						if text.Len() > 0 {
							text.WriteByte(' ')
						}
						text.WriteString(TermName(int(t)))
					}
				}
				rec := record{ID: "doc-" + strconv.Itoa(i+1), Text: text.String()}
				if d.Label >= 0 {
					rec.Labels = []string{ClassName(d.Label)}
					st.Labeled++
				}
				st.NNZ += len(d.Terms)
				st.Tokens += d.Tokens
				return enc.Encode(rec)
			})
		})
		if err != nil {
			return st, err
		}
		st.Files = append(st.Files, path)
		return st, nil
	}
	return st, fmt.Errorf("synth: unknown format %q (want %s)", format, strings.Join(Formats, ", "))
}

// describe is the Config in one line, for file headers.
func describe(c Config) string {
	return fmt.Sprintf("docs %d, terms %d, topics %d, classes %d, labeled %g, mean length %g, sigma %g, zipf %g, topic share %g, seed %d",
		c.Docs, c.Terms, c.Topics, c.Classes, c.Labeled, c.MeanLength, c.LengthSigma, c.Zipf, c.TopicShare, c.Seed)
}

// writeFile writes path atomically through a buffered writer
// (atomicfile.WriteFile, whose buffer fill writes to).
func writeFile(path string, fill func(w *bufio.Writer) error) error {
	return atomicfile.WriteFile(path, func(w io.Writer) error { return fill(bufio.NewWriter(w)) })
}

// nopWriter discards what is written.
type nopWriter struct{}

func (nopWriter) Write(p []byte) (int, error) { return len(p), nil }
