package labelefficiency

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/experiment/lab"
	"github.com/semitopic/semitopic/internal/datadir"
	"github.com/semitopic/semitopic/model"
)

// Every corpus's seed file parses and gives each class ten seed words.
func TestSeedFiles(t *testing.T) {
	for _, name := range []string{"20ng", "bbc", "brown", "reuters"} {
		file := "seeds/" + name + ".txt"
		b, err := seedFiles.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		anchors, err := model.ParseAnchors(file, bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if len(anchors) < 5 {
			t.Errorf("%s: %d classes", file, len(anchors))
		}
		for _, a := range anchors {
			if len(a.Words) != 10 || len(a.Exclude) != 0 {
				t.Errorf("%s: class %q has %d seed words and %d exclusions, want 10 and none", file, a.Topic, len(a.Words), len(a.Exclude))
			}
		}
	}
}

// The seed-word benchmark in its quick mode, end to end: the seed count,
// the kinds with seed words alone and beside labels, the report, and a
// rerun that resumes instead of fitting again.
func TestSeedWordsQuick(t *testing.T) {
	datadir.Require(t, "bbc/bbc-fulltext.tar.gz")
	data, err := datadir.Find()
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	var log bytes.Buffer
	env := &lab.Env{Data: data, Out: out, Quick: true, Command: "test", Log: &log}
	if err := SeedWordsExperiment().Run(context.Background(), env); err != nil {
		t.Fatal(err)
	}
	report, err := os.ReadFile(filepath.Join(out, "seed-words-quick.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| bbc (23.2) | seed count |", "linear SVM (labels only)", "CorEx (seed words)", "top 10"} {
		if !strings.Contains(string(report), want) {
			t.Errorf("report lacks %q", want)
		}
	}
	log.Reset()
	if err := SeedWordsExperiment().Run(context.Background(), env); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "resuming: 4 runs") || strings.Contains(log.String(), "seed count") {
		t.Errorf("the rerun did not resume from the saved runs:\n%s", log.String())
	}
}
