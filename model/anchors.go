package model

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

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
// and -word3 is an exclusion word: the topic may not use it. Blank lines
// and lines starting with # are skipped. Errors name the file (name) and
// the line.
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
				v, err := strconv.ParseFloat(strings.TrimSpace(b), 64)
				if err != nil || v <= 0 || math.IsInf(v, 0) {
					return nil, fmt.Errorf("%s:%d: anchor %q: strength must be a positive number", name, line, w)
				}
				w, beta = strings.TrimSpace(word), v
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
