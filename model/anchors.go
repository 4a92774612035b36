package model

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/semitopic/semitopic/text"
)

// MinStrength and MaxStrength bound a seed word's strength (word:3 in an
// anchors file, Anchor.Beta) and Options.Beta, which scale the default 1:
// a million times the default already makes a seed word outweigh the
// documents (and a millionth of it makes it vanish beside them), while
// strengths far beyond overflow the float64 range (the NMF family squares
// them) or turn the fit's objective meaningless. A strength outside the
// bounds, zero, negative or not a finite number is an error.
const (
	MinStrength = 1e-6
	MaxStrength = 1e6
)

// checkStrength reports a strength outside [MinStrength, MaxStrength]; the
// error names the value but not its place, which the caller adds.
func checkStrength(v float64) error {
	if math.IsNaN(v) || v < MinStrength || v > MaxStrength {
		return fmt.Errorf("strength %v: want a number from %g to %g", v, MinStrength, MaxStrength)
	}
	return nil
}

// checkAnchors validates anchors as a Go caller may build them: a seed
// word's strength (Anchor.Beta) is 0, for the default, or within
// [MinStrength, MaxStrength], and there is one per seed word or none. The
// error names the topic and the word.
func checkAnchors(anchors []Anchor) error {
	for _, a := range anchors {
		if len(a.Beta) != 0 && len(a.Beta) != len(a.Words) {
			return fmt.Errorf("model: anchors: topic %q has %d strengths for %d seed words", a.Topic, len(a.Beta), len(a.Words))
		}
		for i, b := range a.Beta {
			if b == 0 {
				continue
			}
			if err := checkStrength(b); err != nil {
				return fmt.Errorf("model: anchors: topic %q, seed word %q: %w (0 for the default)", a.Topic, a.Words[i], err)
			}
		}
	}
	return nil
}

// ReadAnchors reads an anchors file (see ParseAnchors).
func ReadAnchors(path string) ([]Anchor, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParseAnchors(path, f)
}

// ParseAnchors reads the anchors grammar, one topic per line:
//
//	name: word1, word2:3, -word3
//
// word2:3 gives a seed word its strength (otherwise Options.Beta applies),
// a number from MinStrength to MaxStrength, and -word3 is an exclusion
// word: the topic may not use it. Blank lines and lines starting with #
// are skipped. Errors name the file (name), the line and the word.
func ParseAnchors(name string, r io.Reader) ([]Anchor, error) {
	var out []Anchor
	seen := map[string]bool{}
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		s := strings.TrimSpace(sc.Text())
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		topic, words, ok := strings.Cut(s, ":")
		topic = strings.TrimSpace(topic)
		if !ok || topic == "" {
			return nil, fmt.Errorf("%s:%d: want \"topic: word1, word2:3, -word3\"", name, line)
		}
		if seen[topic] {
			return nil, fmt.Errorf("%s:%d: topic %q given twice", name, line, topic)
		}
		seen[topic] = true
		a := Anchor{Topic: topic}
		inTopic := map[string]bool{}
		for _, w := range strings.Split(words, ",") {
			w = strings.TrimSpace(w)
			if w == "" {
				continue
			}
			if ex, ok := strings.CutPrefix(w, "-"); ok {
				ex = strings.TrimSpace(ex)
				if ex == "" || strings.Contains(ex, ":") {
					return nil, fmt.Errorf("%s:%d: exclusion %q: want -word, without a strength", name, line, w)
				}
				if inTopic[ex] {
					return nil, fmt.Errorf("%s:%d: topic %q names %q twice (as a seed or an exclusion)", name, line, topic, ex)
				}
				inTopic[ex] = true
				a.Exclude = append(a.Exclude, ex)
				continue
			}
			beta := 0.0
			if word, b, ok := strings.Cut(w, ":"); ok {
				word, b = strings.TrimSpace(word), strings.TrimSpace(b)
				if word == "" {
					return nil, fmt.Errorf("%s:%d: topic %q: %q: want word:strength", name, line, topic, w)
				}
				v, err := strconv.ParseFloat(b, 64)
				if err != nil && !errors.Is(err, strconv.ErrRange) {
					return nil, fmt.Errorf("%s:%d: topic %q, seed word %q: strength %q is not a number (want word:3, a number from %g to %g)", name, line, topic, word, b, MinStrength, MaxStrength)
				}
				if err := checkStrength(v); err != nil {
					return nil, fmt.Errorf("%s:%d: topic %q, seed word %q: %w (leave it out, as %q, for the default)", name, line, topic, word, err, word)
				}
				w, beta = word, v
			}
			if inTopic[w] {
				return nil, fmt.Errorf("%s:%d: topic %q names %q twice (as a seed or an exclusion)", name, line, topic, w)
			}
			inTopic[w] = true
			a.Words = append(a.Words, w)
			a.Beta = append(a.Beta, beta)
		}
		if len(a.Words) == 0 && len(a.Exclude) == 0 {
			return nil, fmt.Errorf("%s:%d: topic %q has no words", name, line, topic)
		}
		out = append(out, a)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no anchors", name)
	}
	return out, nil
}

// AnalyzeAnchors returns anchors whose words and phrases are read as the
// fitted text pipeline reads documents — lower-cased, stemmed or
// lemmatised, phrases joined into the pipeline's n-grams — so that a
// person types "Games" or "New York" and meets the vocabulary's "game" or
// "new york". A word the pipeline drops (a stopword, a number) is kept as
// typed and noted: the kinds then report it missing from the vocabulary. A
// phrase longer than the pipeline's n-grams is an error, as are a seed
// and an exclusion of one topic that the pipeline reads as one term. Two
// seed words read as one term become one, with the larger strength given
// (an explicit strength over none).
func AnalyzeAnchors(a *text.Analyzer, anchors []Anchor) ([]Anchor, []string, error) {
	if err := checkAnchors(anchors); err != nil {
		return nil, nil, err
	}
	if a == nil || len(anchors) == 0 {
		return anchors, nil, nil
	}
	var notes []string
	term := func(topic, w string) (string, error) {
		t, err := a.Term(w)
		switch {
		case errors.Is(err, text.ErrNoTerm):
			notes = append(notes, fmt.Sprintf("anchors: topic %q: %q: %v", topic, w, err))
			return w, nil
		case err != nil:
			return "", fmt.Errorf("anchors: topic %q: %q: %w", topic, w, err)
		}
		return t, nil
	}
	out := make([]Anchor, len(anchors))
	for i, an := range anchors {
		r := Anchor{Topic: an.Topic}
		seed := map[string]int{} // term → index in r.Words
		from := map[string]string{}
		for j, w := range an.Words {
			t, err := term(an.Topic, w)
			if err != nil {
				return nil, nil, err
			}
			b := 0.0
			if j < len(an.Beta) {
				b = an.Beta[j]
			}
			if k, dup := seed[t]; dup {
				notes = append(notes, fmt.Sprintf("anchors: topic %q: %q and %q are both read as %q; they count once", an.Topic, from[t], w, t))
				r.Beta[k] = max(r.Beta[k], b)
				continue
			}
			seed[t], from[t] = len(r.Words), w
			r.Words = append(r.Words, t)
			r.Beta = append(r.Beta, b)
		}
		if len(an.Beta) == 0 {
			r.Beta = nil
		}
		excl := map[string]bool{}
		for _, w := range an.Exclude {
			t, err := term(an.Topic, w)
			if err != nil {
				return nil, nil, err
			}
			if _, dup := seed[t]; dup {
				return nil, nil, fmt.Errorf("anchors: topic %q: seed word %q and exclusion word %q are both read as %q", an.Topic, from[t], w, t)
			}
			if !excl[t] {
				excl[t] = true
				r.Exclude = append(r.Exclude, t)
			}
		}
		out[i] = r
	}
	return out, notes, nil
}
