//go:build !semitopic_noja

package segment

import (
	"fmt"
	"math"
	"sync"
	"unicode/utf8"

	"github.com/ikawaha/kagome-dict/dict"
	"github.com/ikawaha/kagome-dict/ipa"
)

// hasJapanese reports whether the build holds the Japanese dictionary.
const hasJapanese = true

// japanese segments with the IPADIC dictionary as kagome (and MeCab) do:
// the lowest-cost path through the lattice of the dictionary's morphemes
// and of unknown words made by character class. It reads kagome's
// dictionary data directly and keeps its lattice in reused arrays, without
// kagome's node objects, callbacks and map look-ups per match.
type japanese struct {
	d *dict.Dict
	// dup[id] counts the morphemes after id with the same surface (the
	// index's Dup map, made a slice).
	dup []uint16
	// unkID and unkDup are the first unknown-word morpheme of each
	// character class and the number after it with the same class.
	unkID, unkDup []int32
	// ends has bit q set when a word ends at node q of the dictionary's
	// double array (its terminal child exists), so that the walk reads
	// the child only for the words: a bit per node stays in the caches
	// where the nodes do not.
	ends    []uint64
	scratch sync.Pool
}

// maxCost is the cost of a path that cannot be made (kagome's).
const maxCost = 1<<31 - 1

// maxUnknownLength bounds an unknown word, in characters (kagome's).
const maxUnknownLength = 1024

func newJapanese() (*japanese, error) {
	d := ipa.Dict()
	j := &japanese{d: d, dup: make([]uint16, len(d.Morphs))}
	for id, n := range d.Index.Dup {
		if id < 0 || int(id) >= len(j.dup) || n < 0 || n > 0xFFFF {
			return nil, fmt.Errorf("segment: Japanese dictionary: morpheme %d has %d duplicates", id, n)
		}
		j.dup[id] = uint16(n)
	}
	n := len(d.InvokeList)
	if len(d.GroupList) != n || len(d.CharCategory) == 0 {
		return nil, fmt.Errorf("segment: Japanese dictionary: %d character classes to invoke, %d to group, %d categories", n, len(d.GroupList), len(d.CharCategory))
	}
	j.unkID, j.unkDup = make([]int32, n), make([]int32, n)
	for c := range n {
		id, ok := d.UnkDict.Index[int32(c)]
		if !ok {
			j.unkID[c] = -1
			continue
		}
		j.unkID[c], j.unkDup[c] = id, d.UnkDict.IndexDup[int32(c)]
		if id < 0 || int(id+j.unkDup[c]) >= len(d.UnkDict.Morphs) {
			return nil, fmt.Errorf("segment: Japanese dictionary: unknown-word morphemes %d+%d of class %d out of range", id, j.unkDup[c], c)
		}
	}
	for _, c := range d.CharCategory {
		if int(c) >= n {
			return nil, fmt.Errorf("segment: Japanese dictionary: character category %d of %d", c, n)
		}
	}
	da := d.Index.Da
	j.ends = make([]uint64, (len(da)+63)/64)
	for q := range da {
		if a := int(da[q].Base); a >= 0 && a < len(da) && int(da[a].Check) == q && da[a].Base <= 0 {
			j.ends[q/64] |= 1 << (q % 64)
		}
	}
	j.scratch.New = func() any { return new(lattice) }
	return j, nil
}

// lattice is the memory of one Append.
type lattice struct {
	nodes []node
	// head and tail are the first and last node ending at each
	// character (-1: none), linked in the order they were made.
	head, tail []int32
	// rights, costs and reps describe the nodes that end where the
	// character being read starts, one entry per right context id: the
	// first of its nodes with the lowest cost (for any node that follows,
	// the others of that id cannot be better), side by side so that the
	// best path into a node is a loop over three arrays.
	rights []int16
	costs  []int32
	reps   []int32
	// slot[r] is the entry of right context id r in those arrays, valid
	// when slotGen[r] == gen.
	slot    []int32
	slotGen []uint32
	// best caches, for the character being read, the best path into
	// each left context id: kagome compares every node with every node
	// before it, but nodes with the same left id choose alike.
	best []leftBest
	gen  uint32 // best[l] and slot[r] hold for this character when their gen is gen
	// runeAt maps a byte offset of the run to the index of the
	// character that starts there.
	runeAt []int32
	path   []int32
}

// node is a morpheme of the lattice: the bytes run[start:end]; its right
// context id, the cost of the best path to its end, the node before it on
// that path and the next node that ends where it ends.
type node struct {
	start, end int32
	right      int16
	cost       int32
	prev, next int32
}

// leftBest is the best path into a left context id from the nodes ending
// at a character: its cost without the morpheme's weight, and its last
// node.
type leftBest struct {
	gen  uint32
	cost int64
	node int32
}

// category returns the character class of r.
func (j *japanese) category(r rune) int {
	if int(r) < len(j.d.CharCategory) && r >= 0 {
		return int(j.d.CharCategory[r])
	}
	return int(j.d.CharCategory[0])
}

// add makes the node of run[start:end] with the morpheme m ending before
// character last, with the cost of its best path from the nodes that end
// where it starts (character first, the one being read: la.reps holds
// them), as kagome's Forward computes it (ties go to the node made
// first).
func (j *japanese) add(la *lattice, first, last int, start, end int, m dict.Morph) {
	n := node{start: int32(start), end: int32(end), right: m.RightID, cost: maxCost, prev: -1, next: -1}
	if len(la.reps) > 0 {
		b := &la.best[m.LeftID]
		if b.gen != la.gen {
			row := j.d.Connection.Row
			conn := j.d.Connection.Vec[row*int64(m.LeftID) : row*int64(m.LeftID)+row]
			cost, best := int64(math.MaxInt64), int32(-1)
			costs, reps := la.costs[:len(la.rights)], la.reps[:len(la.rights)]
			for k, r := range la.rights {
				if c := int64(conn[r]) + int64(costs[k]); c < cost || c == cost && reps[k] < best {
					cost, best = c, reps[k]
				}
			}
			b.gen, b.cost, b.node = la.gen, cost, best
		}
		if c := b.cost + int64(m.Weight); c < maxCost {
			n.cost, n.prev = int32(c), b.node
		} else {
			j.forward(la, &n, first, m) // kagome's comparisons of costs cut to maxCost
		}
	}
	id := int32(len(la.nodes))
	la.nodes = append(la.nodes, n)
	if la.tail[last] >= 0 {
		la.nodes[la.tail[last]].next = id
	} else {
		la.head[last] = id
	}
	la.tail[last] = id
}

// at starts character first: it forgets the best paths of the character
// before and gathers in la.rights, la.costs and la.reps the best node of
// each right context id among those ending there, in the order they were
// made.
func (la *lattice) at(first int) {
	la.gen++
	if la.gen == 0 { // wrapped around: clear the marks
		for i := range la.best {
			la.best[i].gen = 0
		}
		clear(la.slotGen)
		la.gen = 1
	}
	la.rights, la.costs, la.reps = la.rights[:0], la.costs[:0], la.reps[:0]
	for p := la.head[first]; p >= 0; p = la.nodes[p].next {
		n := &la.nodes[p]
		if la.slotGen[n.right] != la.gen {
			la.slotGen[n.right], la.slot[n.right] = la.gen, int32(len(la.reps))
			la.rights, la.costs, la.reps = append(la.rights, n.right), append(la.costs, n.cost), append(la.reps, p)
		} else if k := la.slot[n.right]; n.cost < la.costs[k] {
			la.costs[k], la.reps[k] = n.cost, p
		}
	}
}

// forward sets the cost and the node before n, of morpheme m, as kagome's
// Forward does, comparing it with every node that ends at character first.
func (j *japanese) forward(la *lattice, n *node, first int, m dict.Morph) {
	conn := j.d.Connection
	base := conn.Row * int64(m.LeftID)
	for p, k := la.head[first], 0; p >= 0; p, k = la.nodes[p].next, k+1 {
		pn := &la.nodes[p]
		total := int64(conn.Vec[base+int64(pn.right)]) + int64(m.Weight) + int64(pn.cost)
		if total > maxCost {
			total = maxCost
		}
		if k == 0 || int32(total) < n.cost {
			n.cost, n.prev = int32(total), p
		}
	}
}

// Append cuts run into the morphemes of the lowest-cost path through
// IPADIC's lattice (MeCab's algorithm, as kagome computes it), in their
// surface forms.
func (j *japanese) Append(dst []string, run string) []string {
	if run == "" {
		return dst
	}
	la := j.scratch.Get().(*lattice)
	defer j.scratch.Put(la)
	rc := utf8.RuneCountInString(run)
	la.nodes = la.nodes[:0]
	la.head, la.tail = resize(la.head, rc+2), resize(la.tail, rc+2)
	for i := range la.head {
		la.head[i], la.tail[i] = -1, -1
	}
	if len(la.best) != int(j.d.Connection.Row) {
		la.best = make([]leftBest, j.d.Connection.Row)
		la.slot, la.slotGen = make([]int32, j.d.Connection.Row), make([]uint32, j.d.Connection.Row)
	}
	la.runeAt = resize(la.runeAt, len(run)+1)
	r := int32(0)
	for i := range run {
		la.runeAt[i] = r
		r++
	}
	la.runeAt[len(run)] = r
	// The beginning of the run: a node of cost 0 ending before character 0.
	la.nodes = append(la.nodes, node{right: 0, prev: -1, next: -1})
	la.head[0], la.tail[0] = 0, 0
	da := j.d.Index.Da
	runePos := -1
	// The group of unknown words last made by a scan: its end, its class
	// and whether it stopped at maxUnknownLength.
	grpEnd, grpClass, grpCapped := -1, -1, false
	for pos, ch := range run {
		runePos++
		la.at(runePos)
		matched := false
		// The dictionary's words that start here (kagome's
		// CommonPrefixSearchCallback, inline).
		p, q := 0, 0
		for i := pos; i < len(run); i++ {
			b := run[i]
			if b == 0 {
				break
			}
			p = q
			q = int(da[p].Base) + int(b)
			if q < 0 || q >= len(da) || int(da[q].Check) != p {
				break
			}
			if i+1 < len(run) && run[i+1]&0xC0 == 0x80 {
				continue // inside a character: no word ends here
			}
			if j.ends[q/64]&(1<<(q%64)) != 0 {
				id := int(-da[da[q].Base].Base)
				last := int(la.runeAt[i+1])
				for x := id; x <= id+int(j.dup[id]); x++ {
					j.add(la, runePos, last, pos, i+1, j.d.Morphs[x])
				}
				matched = true
			}
		}
		// Unknown words: always where no word starts, and for the
		// classes whose definition says so.
		class := j.category(ch)
		if matched && !j.d.InvokeList[class] {
			continue
		}
		end := pos + utf8.RuneLen(ch)
		if ch == utf8.RuneError {
			end = pos + 1 // kagome's: then every count below is made anew
		}
		n := 1
		switch {
		case !j.d.GroupList[class]:
		case ch != utf8.RuneError && pos < grpEnd && class == grpClass && !grpCapped:
			// Inside the class's run that a character before grouped:
			// the group ends where that one did, without a rescan (a
			// rescan from every character is quadratic in a long run).
			end = grpEnd
		default:
			for i, w := end, 0; i < len(run); i += w {
				var c rune
				c, w = utf8.DecodeRuneInString(run[i:])
				if j.category(c) != class {
					break
				}
				end += w
				if n++; n >= maxUnknownLength {
					break
				}
			}
			if ch != utf8.RuneError {
				grpEnd, grpClass, grpCapped = end, class, n >= maxUnknownLength
			}
		}
		prev := pos
		if c, size := utf8.DecodeLastRuneInString(run[pos:end]); c != utf8.RuneError {
			prev = end - size
		}
		id := j.unkID[class]
		if id < 0 {
			continue
		}
		// The characters of run[pos:prev] and run[pos:end].
		nPrev, nEnd := int(la.runeAt[prev])-runePos, int(la.runeAt[end])-runePos
		if ch == utf8.RuneError {
			nPrev, nEnd = utf8.RuneCountInString(run[pos:prev]), utf8.RuneCountInString(run[pos:end])
		}
		for x := id; x <= id+j.unkDup[class]; x++ {
			m := j.d.UnkDict.Morphs[x]
			if pos < prev {
				j.add(la, runePos, runePos+nPrev, pos, prev, m)
			}
			j.add(la, runePos, runePos+nEnd, pos, end, m)
		}
	}
	// The end of the run, then the best path back from it.
	la.at(rc)
	j.add(la, rc, rc+1, len(run), len(run), dict.Morph{})
	la.path = la.path[:0]
	for p := la.nodes[len(la.nodes)-1].prev; p > 0; p = la.nodes[p].prev {
		la.path = append(la.path, p)
	}
	for i := len(la.path) - 1; i >= 0; i-- {
		n := &la.nodes[la.path[i]]
		dst = append(dst, run[n.start:n.end])
	}
	return dst
}

// resize returns s with length n, reusing its memory when it can.
func resize(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	return s[:n]
}
