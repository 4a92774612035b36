package corex

import (
	"context"
	"strings"
	"testing"
)

// TestHoldTeachesTopics holds a few documents of each planted group in
// one topic and out of the others: every held document is read as held,
// and each topic's top words are its held documents' group's.
func TestHoldTeachesTopics(t *testing.T) {
	const groups, size = 4, 8
	x, vocab, label := planted(400, groups, size, 30, 3)
	var hs []Held
	per := make([]int, groups)
	for d, g := range label {
		if per[g] == 5 {
			continue
		}
		per[g]++
		h := Held{Doc: d, In: []int{g}}
		for o := 0; o < groups; o++ {
			if o != g {
				h.Out = append(h.Out, o)
			}
		}
		hs = append(hs, h)
	}
	m, err := Fit(context.Background(), x, Config{K: groups, Seed: 1, Vocab: vocab, Hold: hs})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hs {
		row := m.Train.P.RawRowView(h.Doc)
		for j, p := range row {
			want := pClip
			if j == h.In[0] {
				want = 1 - pClip
			}
			if p != want {
				t.Errorf("held document %d: p(y_%d|x) = %v, want %v", h.Doc, j, p, want)
			}
		}
	}
	for j := 0; j < groups; j++ {
		ws, err := m.TopWords(j, 3, ByMI)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range ws {
			if groupOf(w.Term) != j || w.Sign != 1 {
				t.Errorf("topic %d, held to group %d's documents: top words %v", j, j, ws)
				break
			}
		}
	}
}

func TestHoldInvalid(t *testing.T) {
	x, _, _ := planted(50, 2, 4, 5, 1)
	for _, c := range []struct {
		hs   []Held
		want string
	}{
		{[]Held{{Doc: 50, In: []int{0}}}, "document 50 of 50"},
		{[]Held{{Doc: 1, In: []int{2}}}, "topic 2 of 2"},
		{[]Held{{Doc: 1, In: []int{0}, Out: []int{0}}}, "both in and out"},
		{[]Held{{Doc: 1, In: []int{0}}, {Doc: 1, In: []int{1}}}, "held twice"},
	} {
		_, err := Fit(context.Background(), x, Config{K: 2, Seed: 1, Hold: c.hs})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Hold %v: error %v, want one containing %q", c.hs, err, c.want)
		}
	}
	if _, err := NewTrainer(50, x.Cols, Config{K: 2, Hold: []Held{{Doc: 1, In: []int{0}}}}); err == nil {
		t.Error("NewTrainer took Hold")
	}
}
