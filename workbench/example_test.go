package workbench_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/semitopic/semitopic/demo"
	"github.com/semitopic/semitopic/workbench"
)

// A session over the demo corpus: a person creates a topic from two seed
// words, the session refits, and the round's checks say where the seed
// words stand; the exported anchors file is what `semitopic fit
// --anchors` reads.
func ExampleOpen() {
	d, err := demo.Generate(demo.Options{Docs: 200})
	if err != nil {
		fmt.Println(err)
		return
	}
	dir, err := os.MkdirTemp("", "workbench-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	ctx := context.Background()
	s, err := workbench.Open(ctx, workbench.Config{Corpus: d.Corpus, K: 6, Project: dir, Debounce: -1})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	v, err := s.Apply(s.Status().Version, workbench.Edit{Op: workbench.OpCreateTopic, Name: "space", Words: []string{"rocket", "orbit"}})
	if err == nil {
		_, err = s.Refit(v)
	}
	if err == nil {
		_, err = s.Wait(ctx, v)
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	diff, err := s.Diff(0)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("round", diff.Round, "from round", diff.Previous, "after:", strings.Join(diff.Changes, "; "))
	for _, c := range diff.Checks.Seeds {
		fmt.Printf("seed word %q of %q in its top 10: %v\n", c.Word, c.Topic, c.Top10)
	}
	var anchors strings.Builder
	if err := s.Export(&anchors, workbench.ExportAnchors); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(anchors.String())
	// Output:
	// round 2 from round 1 after: topic "space" created from rocket, orbit (k 7)
	// seed word "rocket" of "space" in its top 10: true
	// seed word "orbit" of "space" in its top 10: true
	// space: rocket, orbit
}
