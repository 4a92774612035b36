package main

import (
	"strings"
	"testing"

	"github.com/semitopic/semitopic/experiment"
)

// --languages belongs to experiment languages: another experiment refuses
// it rather than ignore it.
func TestExperimentLanguagesFlag(t *testing.T) {
	for _, e := range experiment.All() {
		if e.Name == "languages" {
			continue
		}
		_, _, err := run(t, "experiment", e.Name, "--languages", "de", "--out", t.TempDir())
		if err == nil || !strings.Contains(err.Error(), "--languages") {
			t.Errorf("experiment %s --languages de: %v", e.Name, err)
		}
		return
	}
	t.Fatal("no experiment but languages")
}
