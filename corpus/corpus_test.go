package corpus

import (
	"reflect"
	"testing"
)

func TestLabelIndex(t *testing.T) {
	docs := []Document{{Labels: []string{"b", "a", "b"}}, {}, {Labels: []string{"c"}}}
	names, idx := LabelIndex(docs)
	if !reflect.DeepEqual(names, []string{"a", "b", "c"}) {
		t.Errorf("names %v", names)
	}
	if !reflect.DeepEqual(idx, [][]int{{1, 0}, nil, {2}}) {
		t.Errorf("idx %v", idx)
	}
}

func TestDocLabels(t *testing.T) {
	docs := []Document{{ID: "a", Labels: []string{"x", "y"}}, {ID: "b"}, {ID: "c", Labels: []string{"z"}}}
	got := DocLabels(docs)
	if len(got) != 3 || len(got[0]) != 2 || got[1] != nil || got[2][0] != "z" {
		t.Errorf("DocLabels = %q", got)
	}
}
