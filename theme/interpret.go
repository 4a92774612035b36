package theme

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/semitopic/semitopic/metrics"
)

// TermScore is a term with its score.
type TermScore struct {
	Term  string  `json:"term"`
	Score float64 `json:"score"`
}

// LambdaTerms are a theme's top terms at one purity ratio.
type LambdaTerms struct {
	Lambda float64 `json:"lambda"`
	// Subtopics[q] are subtopic q's top terms.
	Subtopics [][]TermScore `json:"subtopics"`
	// Max and Sum are the top terms of the aggregates over subtopics.
	Max []TermScore `json:"max"`
	Sum []TermScore `json:"sum"`
}

// ThemeInterpretation is one theme's (or the new topics') interpretation.
type ThemeInterpretation struct {
	Theme string        `json:"theme"`
	Terms []LambdaTerms `json:"terms"`
	// Background are the top terms of the background topic of the theme's
	// model (Separated training only; the Combined background is in
	// Interpretation.Background).
	Background []TermScore `json:"background,omitempty"`
}

// Interpretation is the printable summary of a model: per theme, the top
// terms of each subtopic and of the max and sum aggregates at each purity
// ratio, and the background topics' top terms (thesis Figures 8.4–8.6).
// It marshals to JSON as is.
type Interpretation struct {
	Mode      string                `json:"mode"`
	Subtopics int                   `json:"subtopics"`
	Themes    []ThemeInterpretation `json:"themes"`
	// New is the new topics' interpretation (nil without new topics).
	New *ThemeInterpretation `json:"new,omitempty"`
	// Background are the Combined model's background top terms.
	Background []TermScore `json:"background,omitempty"`
}

// InterpretOptions configures Interpret.
type InterpretOptions struct {
	// TopN is the number of terms per list (0: 10).
	TopN int
	// Lambdas are the purity ratios (nil: 0 and 1, the thesis' figures).
	Lambdas []float64
}

// topTerms returns the n terms with the highest positive scores (ties by
// column order).
func topTerms(scores []float64, vocab []string, n int) []TermScore {
	if n <= 0 {
		return nil
	}
	var out []TermScore
	for _, j := range metrics.TopIndices(scores, n) {
		out = append(out, TermScore{Term: vocab[j], Score: scores[j]})
	}
	return out
}

// Interpret summarises the model with vocab naming its terms. It is an
// error if vocab does not name the model's terms or m's parts are not laid
// out as Fit lays them out.
func (m *Model) Interpret(vocab []string, opts InterpretOptions) (*Interpretation, error) {
	if err := m.check(); err != nil {
		return nil, err
	}
	if len(vocab) != m.Terms {
		return nil, fmt.Errorf("theme: vocabulary of %d terms for a model of %d", len(vocab), m.Terms)
	}
	top := opts.TopN
	if top <= 0 {
		top = 10
	}
	lambdas := opts.Lambdas
	if lambdas == nil {
		lambdas = []float64{0, 1}
	}
	for _, l := range lambdas {
		if err := checkLambda(l); err != nil {
			return nil, err
		}
	}
	in := &Interpretation{Mode: m.Mode.String(), Subtopics: m.Subtopics}
	one := func(j int, name string) (*ThemeInterpretation, error) {
		ti := &ThemeInterpretation{Theme: name}
		for _, l := range lambdas {
			tt, err := m.ThemeTermScores(j, l)
			if err != nil {
				return nil, err
			}
			lt := LambdaTerms{Lambda: l, Max: topTerms(tt.Max, vocab, top), Sum: topTerms(tt.Sum, vocab, top)}
			for _, s := range tt.Subtopics {
				lt.Subtopics = append(lt.Subtopics, topTerms(s, vocab, top))
			}
			ti.Terms = append(ti.Terms, lt)
			if m.Mode == Separated && ti.Background == nil {
				ti.Background = topTerms(tt.Background, vocab, top)
			}
		}
		return ti, nil
	}
	for j, name := range m.Themes {
		ti, err := one(j, name)
		if err != nil {
			return nil, err
		}
		in.Themes = append(in.Themes, *ti)
	}
	if m.NewTopics > 0 {
		ti, err := one(NewTopicsTheme, "(new topics)")
		if err != nil {
			return nil, err
		}
		in.New = ti
	}
	if m.Mode == Combined {
		p := m.Parts[0]
		d, err := DirectTermScores(p.H)
		if err != nil {
			return nil, fmt.Errorf("theme: scoring the background terms: %w", err)
		}
		in.Background = topTerms(d.RawRowView(p.Background), vocab, top)
	}
	return in, nil
}

func termList(ts []TermScore) string {
	if len(ts) == 0 {
		return "(none)"
	}
	parts := make([]string, len(ts))
	for a, t := range ts {
		parts[a] = fmt.Sprintf("%s (%.4f)", t.Term, t.Score)
	}
	return strings.Join(parts, ", ")
}

// WriteText writes the interpretation as plain text: one block per theme
// with a line per purity ratio and list (subtopics, max, sum), then the
// background topics.
func (in *Interpretation) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "mode %s, %d subtopics per theme\n", in.Mode, in.Subtopics)
	block := func(ti *ThemeInterpretation) {
		fmt.Fprintf(tw, "\n== %s\n", ti.Theme)
		for _, lt := range ti.Terms {
			for q, s := range lt.Subtopics {
				fmt.Fprintf(tw, "λ=%g\tsubtopic %d\t%s\n", lt.Lambda, q+1, termList(s))
			}
			fmt.Fprintf(tw, "λ=%g\tmax\t%s\n", lt.Lambda, termList(lt.Max))
			fmt.Fprintf(tw, "λ=%g\tsum\t%s\n", lt.Lambda, termList(lt.Sum))
		}
		if ti.Background != nil {
			fmt.Fprintf(tw, "\tbackground\t%s\n", termList(ti.Background))
		}
	}
	for a := range in.Themes {
		block(&in.Themes[a])
	}
	if in.New != nil {
		block(in.New)
	}
	if in.Background != nil {
		fmt.Fprintf(tw, "\n== background\n\t\t%s\n", termList(in.Background))
	}
	return tw.Flush()
}

// WriteInterpretation writes the model's interpretation (Interpret, then
// WriteText) to w.
func WriteInterpretation(w io.Writer, m *Model, vocab []string, opts InterpretOptions) error {
	in, err := m.Interpret(vocab, opts)
	if err != nil {
		return err
	}
	return in.WriteText(w)
}
