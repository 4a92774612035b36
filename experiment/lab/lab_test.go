package lab

import (
	"reflect"
	"strings"
	"testing"
)

// Only keeps the corpora named, in the protocol's order, all of them when
// none is named, and refuses a name the experiment does not run.
func TestOnly(t *testing.T) {
	all := []string{"bbc", "brown", "reuters", "20ng"}
	for _, tc := range []struct {
		names, want []string
	}{
		{nil, all},
		{[]string{"20ng", "bbc"}, []string{"bbc", "20ng"}},
		{[]string{"brown"}, []string{"brown"}},
	} {
		e := &Env{Datasets: tc.names}
		got, err := e.Only(all)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Only with %v: %v, %v; want %v", tc.names, got, err, tc.want)
		}
	}
	e := &Env{Datasets: []string{"bbc", "reuter"}}
	if _, err := e.Only(all); err == nil || !strings.Contains(err.Error(), `"reuter"`) {
		t.Errorf("an unknown corpus: %v", err)
	}
}
