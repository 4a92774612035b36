package workbench

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/demo"
	"github.com/semitopic/semitopic/model"
)

// TestLabelsHeld labels documents in the kinds that hold labels on
// request (ssnmf, corex), three of them with another class than their
// words say: every labeled document is predicted as labeled, and the
// exported command fits with --hold-labels.
func TestLabelsHeld(t *testing.T) {
	dm, err := demo.Generate(demo.Options{Docs: 120, Labeled: 1})
	if err != nil {
		t.Fatal(err)
	}
	truth := dm.Corpus
	for _, kind := range []string{model.KindSSNMF, model.KindCorEx} {
		t.Run(kind, func(t *testing.T) {
			c := demoCorpus(t, 120, false)
			s := open(t, Config{Corpus: c, K: 4, Source: []string{"--format", "jsonl", "c.jsonl"}})
			byLabel := map[string][]string{}
			var classes []string
			for _, d := range truth.Docs {
				if len(d.Labels) != 1 {
					continue
				}
				l := d.Labels[0]
				if byLabel[l] == nil {
					classes = append(classes, l)
				}
				if len(byLabel[l]) < 6 {
					byLabel[l] = append(byLabel[l], d.ID)
				}
			}
			for k, l := range classes {
				ids := byLabel[l]
				apply(t, s, Edit{Op: OpLabel, Docs: ids[:5], Label: l})
				// The sixth document gets the next class.
				apply(t, s, Edit{Op: OpLabel, Docs: ids[5:], Label: classes[(k+1)%len(classes)]})
			}
			apply(t, s, Edit{Op: OpSetKind, Kind: kind})
			// A warm refit of the kind holds the labels too.
			apply(t, s, Edit{Op: OpLabel, Docs: byLabel[classes[0]][5:], Label: classes[2%len(classes)]})
			if st := s.Status(); !slices.ContainsFunc(st.Notes, func(n string) bool { return strings.Contains(n, "labels held") }) ||
				!slices.ContainsFunc(st.Notes, func(n string) bool { return strings.Contains(n, "warm start") }) {
				t.Errorf("the last refit is no warm fit holding labels: %q", st.Notes)
			}
			d, err := s.Diff(s.Status().Round)
			if err != nil {
				t.Fatal(err)
			}
			ch := d.Checks
			if ch.Labeled != 6*len(classes) || ch.Agree != ch.Labeled {
				t.Errorf("%d of %d labeled documents predicted as labeled (%d wordless): %+v", ch.Agree, ch.Labeled, ch.Wordless, ch.Disagree)
			}
			var b bytes.Buffer
			if err := s.Export(&b, ExportCommand); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(b.String(), "--kind "+kind) || !strings.Contains(b.String(), "--hold-labels") {
				t.Errorf("command: %s", b.String())
			}
			if p := s.Status().Promise; !strings.Contains(p, fmt.Sprintf("held to its labels in %s", kind)) {
				t.Errorf("promise: %s", p)
			}
		})
	}
}
