package labtest

import (
	"context"
	"os"
	"testing"

	"github.com/semitopic/semitopic/experiment/lab"
	"github.com/semitopic/semitopic/internal/datadir"
)

// RunQuickLong runs e's quick mode on the shared corpora files (paths in
// the data folder) into a temporary folder, which it returns: the long
// tests of the reproductions. It skips unless SEMITOPIC_LONG=1, saying
// what the run reads and how long it takes (took), and skips with the
// data folder's message when a file is missing.
func RunQuickLong(t *testing.T, e lab.Experiment, took string, files ...string) string {
	t.Helper()
	if os.Getenv("SEMITOPIC_LONG") == "" {
		t.Skipf("SEMITOPIC_LONG=1 runs it (%s)", took)
	}
	for _, f := range files {
		datadir.Require(t, f)
	}
	data, err := datadir.Find()
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	env := &lab.Env{Data: data, Out: out, Quick: true, Command: "test"}
	if err := e.Run(context.Background(), env); err != nil {
		t.Fatal(err)
	}
	return out
}
