package segment

import (
	"bufio"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// chinese segments as jieba does without its HMM: of all the ways to cut
// a run into dictionary words (a character the dictionary lacks being a
// word of count 1), the one with the largest product of word
// probabilities, count / total count.
type chinese struct {
	// dict holds every word and every proper prefix of a word (jieba's
	// prefix dictionary), so that one look-up says both.
	dict    map[string]entry
	unknown float64 // log probability of a character the dictionary lacks
	maxLen  int     // the longest word, in characters
}

// entry is what the dictionary says of a string.
type entry struct {
	logP         float64 // log probability, when word is set
	word, prefix bool
}

func newChinese() (*chinese, error) {
	dict, err := readGzip(zhDict)
	if err != nil {
		return nil, fmt.Errorf("segment: Chinese dictionary: %w", err)
	}
	c := &chinese{dict: map[string]entry{}}
	counts := map[string]float64{}
	total := 0.0
	sc := bufio.NewScanner(strings.NewReader(dict))
	line := 0
	for sc.Scan() {
		line++
		f := strings.Fields(sc.Text())
		if len(f) < 2 {
			return nil, fmt.Errorf("segment: Chinese dictionary: line %d: want a word and its count", line)
		}
		n, err := strconv.ParseFloat(f[1], 64)
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("segment: Chinese dictionary: line %d: count %q", line, f[1])
		}
		counts[f[0]] += n
		total += n
		c.maxLen = max(c.maxLen, utf8.RuneCountInString(f[0]))
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("segment: Chinese dictionary: %w", err)
	}
	logTotal := math.Log(total)
	for w, n := range counts {
		e := c.dict[w]
		e.word, e.logP = true, math.Log(n)-logTotal
		c.dict[w] = e
		for i := range w {
			if i > 0 {
				e := c.dict[w[:i]]
				e.prefix = true
				c.dict[w[:i]] = e
			}
		}
	}
	c.unknown = -logTotal
	return c, nil
}

// Append cuts run by dynamic programming from its end (jieba's calc):
// best[i] is the best log probability of the characters from i on.
func (c *chinese) Append(dst []string, run string) []string {
	offs := make([]int, 0, len(run)/3+1) // byte offset of each character, and len(run)
	for i := range run {
		offs = append(offs, i)
	}
	n := len(offs)
	offs = append(offs, len(run))
	best := make([]float64, n+1)
	next := make([]int, n+1)
	for i := n - 1; i >= 0; i-- {
		best[i], next[i] = c.unknown+best[i+1], i+1
		for j := i + 1; j <= n && j-i <= c.maxLen; j++ {
			e := c.dict[run[offs[i]:offs[j]]]
			// On ties the longer word wins, as in jieba.
			if e.word {
				if s := e.logP + best[j]; s >= best[i] {
					best[i], next[i] = s, j
				}
			}
			if !e.prefix {
				break // no longer word starts so
			}
		}
	}
	for i := 0; i < n; i = next[i] {
		dst = append(dst, run[offs[i]:offs[next[i]]])
	}
	return dst
}
