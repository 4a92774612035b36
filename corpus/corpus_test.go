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
