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

// The command a report names runs the same corpora and seeds into the
// same folder.
func TestExperimentCommand(t *testing.T) {
	e := &Env{Out: "docs/results"}
	if got := e.ExperimentCommand("x"); got != "go run ./cmd/semitopic experiment x" {
		t.Errorf("plain: %q", got)
	}
	e = &Env{Out: "out", Datasets: []string{"reuters-all"}, Seeds: 2}
	if got, want := e.ExperimentCommand("x"), "go run ./cmd/semitopic experiment x --datasets reuters-all --seeds 2 --out out"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
