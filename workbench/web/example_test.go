package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"

	"github.com/semitopic/semitopic/demo"
	"github.com/semitopic/semitopic/workbench"
	"github.com/semitopic/semitopic/workbench/web"
)

// Serve a workbench session and steer it over HTTP: rename a topic, wait
// for the refit, and read the round's topics.
func Example() {
	d, err := demo.Generate(demo.Options{Docs: 120})
	if err != nil {
		panic(err)
	}
	dir, err := os.MkdirTemp("", "workbench")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	sess, err := workbench.Open(context.Background(), workbench.Config{
		Corpus: d.Corpus, Source: []string{"--format=jsonl", "demo.jsonl"}, K: 4, Seed: 1, MaxIter: 20, Project: dir,
	})
	if err != nil {
		panic(err)
	}
	defer sess.Close()
	h, err := web.New(sess, web.Options{})
	if err != nil {
		panic(err)
	}
	defer h.Close()
	ts := httptest.NewServer(h)
	defer ts.Close()

	var topics struct{ Topics []workbench.TopicView }
	get(ts.URL+"/api/topics?n=3", &topics)
	first := topics.Topics[0].Name
	body := fmt.Sprintf(`{"base": 0, "edit": {"op": "rename", "topic": %q, "name": "first"}}`, first)
	resp, err := http.Post(ts.URL+"/api/edit", "application/json", strings.NewReader(body))
	if err != nil {
		panic(err)
	}
	var edited struct{ Version int }
	json.NewDecoder(resp.Body).Decode(&edited)
	resp.Body.Close()
	fmt.Println("edit:", resp.Status, "version", edited.Version)

	var waited struct{ Round workbench.RoundSummary }
	get(fmt.Sprintf("%s/api/wait?version=%d", ts.URL, edited.Version), &waited)
	fmt.Println("round", waited.Round.Number, "changes:", waited.Round.Changes)
	get(ts.URL+"/api/topics?n=3", &topics)
	fmt.Println("topics:", len(topics.Topics), "the first named", topics.Topics[0].Name)
	// Output:
	// edit: 200 OK version 1
	// round 2 changes: [topic "topic-1" renamed "first"]
	// topics: 4 the first named first
}

func get(u string, v any) {
	resp, err := http.Get(u)
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		panic(resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		panic(err)
	}
}
