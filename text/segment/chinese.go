package segment

import (
	"bufio"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// chinese segments as jieba does without its HMM: of all the ways to cut
// a run into dictionary words (a character the dictionary lacks being a
// word of count 1), the one with the largest product of word
// probabilities, count / total count.
type chinese struct {
	dict    trie
	unknown float64 // log probability of a character the dictionary lacks
	maxLen  int     // the longest word, in characters
	scratch sync.Pool
}

// trie holds the dictionary's words, one node per prefix, the edges of a
// node side by side and sorted by rune, so that walking from a character
// on finds every word that starts there without a look-up per substring.
type trie struct {
	nodes []trieNode
	edges []trieEdge
	// logP holds the log probability of the word of each node, or +1
	// (no probability) where the prefix is not a word.
	logP []float64
	// root maps a rune of the Basic Multilingual Plane to the node of the
	// one-character prefix (0: none); the root's edges hold the others.
	root []int32
}

// trieNode is a prefix of a word: its edges are edges[first:first+n].
// Eight bytes, so that more of the trie stays in the processor's caches;
// the log probability of a word is in trie.logP.
type trieNode struct {
	first, n int32
}

// trieEdge leads from a node to the node one rune longer.
type trieEdge struct {
	r     rune
	child int32
}

// child returns the node one rune r longer than node, or 0 (the root,
// never a child) when no word starts so.
func (t *trie) child(node int32, r rune) int32 {
	if node == 0 && r < rune(len(t.root)) {
		return t.root[r]
	}
	nd := &t.nodes[node]
	e := t.edges[nd.first : nd.first+nd.n]
	lo, hi := 0, len(e)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if e[m].r < r {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(e) && e[lo].r == r {
		return e[lo].child
	}
	return 0
}

// buildTrie returns the trie of words, sorted and without duplicates,
// with their log probabilities.
func buildTrie(words []string, logP []float64) trie {
	t := trie{nodes: []trieNode{{}}, logP: []float64{1}, root: make([]int32, 0x10000)}
	// Each node's words are words[lo:hi], sharing its prefix of depth
	// bytes; a node's edges are made together, so they are side by side.
	type span struct {
		node          int32
		lo, hi, depth int
	}
	queue := []span{{0, 0, len(words), 0}}
	for len(queue) > 0 {
		sp := queue[0]
		queue = queue[1:]
		lo := sp.lo
		if lo < sp.hi && len(words[lo]) == sp.depth {
			t.logP[sp.node] = logP[lo]
			lo++
		}
		t.nodes[sp.node].first = int32(len(t.edges))
		for lo < sp.hi {
			r, size := utf8.DecodeRuneInString(words[lo][sp.depth:])
			hi := lo + 1
			for hi < sp.hi && strings.HasPrefix(words[hi][sp.depth:], words[lo][sp.depth:sp.depth+size]) {
				hi++
			}
			child := int32(len(t.nodes))
			t.nodes = append(t.nodes, trieNode{})
			t.logP = append(t.logP, 1)
			t.edges = append(t.edges, trieEdge{r, child})
			t.nodes[sp.node].n++
			if sp.node == 0 && r < rune(len(t.root)) {
				t.root[r] = child
			}
			queue = append(queue, span{child, lo, hi, sp.depth + size})
			lo = hi
		}
	}
	return t
}

// scratch is the memory of one Append: the runes of the run, their byte
// offsets and the best paths.
type scratch struct {
	runes []rune
	offs  []int
	best  []float64
	next  []int
}

func newChinese() (*chinese, error) {
	dict, err := readGzip(zhDict)
	if err != nil {
		return nil, fmt.Errorf("segment: Chinese dictionary: %w", err)
	}
	c := &chinese{}
	c.scratch.New = func() any { return new(scratch) }
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
		if !utf8.ValidString(f[0]) {
			return nil, fmt.Errorf("segment: Chinese dictionary: line %d: word %q is not UTF-8", line, f[0])
		}
		counts[f[0]] += n
		total += n
		c.maxLen = max(c.maxLen, utf8.RuneCountInString(f[0]))
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("segment: Chinese dictionary: %w", err)
	}
	logTotal := math.Log(total)
	words := make([]string, 0, len(counts))
	for w := range counts {
		words = append(words, w)
	}
	slices.Sort(words)
	logP := make([]float64, len(words))
	for i, w := range words {
		logP[i] = math.Log(counts[w]) - logTotal
	}
	c.dict = buildTrie(words, logP)
	c.unknown = -logTotal
	return c, nil
}

// Append cuts run by dynamic programming from its end (jieba's calc):
// best[i] is the best log probability of the characters from i on.
func (c *chinese) Append(dst []string, run string) []string {
	sc := c.scratch.Get().(*scratch)
	defer c.scratch.Put(sc)
	runes, offs := sc.runes[:0], sc.offs[:0] // each character and its byte offset, then len(run)
	for i, r := range run {
		runes = append(runes, r)
		offs = append(offs, i)
	}
	n := len(offs)
	offs = append(offs, len(run))
	best, next := sc.best[:0], sc.next[:0]
	for range n + 1 {
		best, next = append(best, 0), append(next, 0)
	}
	sc.runes, sc.offs, sc.best, sc.next = runes, offs, best, next
	for i := n - 1; i >= 0; i-- {
		best[i], next[i] = c.unknown+best[i+1], i+1
		node := int32(0)
		for j := i + 1; j <= n && j-i <= c.maxLen; j++ {
			if node = c.dict.child(node, runes[j-1]); node == 0 {
				break // no longer word starts so
			}
			// On ties the longer word wins, as in jieba.
			if lp := c.dict.logP[node]; lp <= 0 {
				if s := lp + best[j]; s >= best[i] {
					best[i], next[i] = s, j
				}
			}
		}
	}
	for i := 0; i < n; i = next[i] {
		dst = append(dst, run[offs[i]:offs[next[i]]])
	}
	return dst
}
