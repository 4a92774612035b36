package main

import (
	"strings"
	"testing"

	"github.com/semitopic/semitopic/experiment"
)

// --datasets belongs to the experiments that run a subset of their
// corpora (or languages): another experiment refuses it rather than ignore
// it.
func TestExperimentDatasetsFlag(t *testing.T) {
	for _, e := range experiment.All() {
		if e.Subsets {
			continue
		}
		_, _, err := run(t, "experiment", e.Name, "--datasets", "de", "--out", t.TempDir())
		if err == nil || !strings.Contains(err.Error(), "--datasets") {
			t.Errorf("experiment %s --datasets de: %v", e.Name, err)
		}
		return
	}
	t.Fatal("every experiment takes --datasets")
}
