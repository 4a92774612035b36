package workbench

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// reopen opens the project of dir again on c, as after a restart.
func reopen(t *testing.T, c Config) *Session {
	t.Helper()
	c.Debounce = -1
	s, err := Open(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestResume(t *testing.T) {
	c := demoCorpus(t, 160, false)
	dir := t.TempDir()
	s := open(t, Config{Corpus: c, K: 4, Project: dir, Source: []string{"--format", "demo"}, Seed: 7})
	apply(t, s, Edit{Op: OpCreateTopic, Name: "space", Words: []string{"rocket", "orbit"}})
	apply(t, s, Edit{Op: OpAddStopword, Word: "people"})
	apply(t, s, Edit{Op: OpRename, Topic: "topic-2", Name: "misc"})
	// The free topic keeps its new name through the refit, which
	// renumbers the model's free topics.
	misc := topicOf(t, s, "misc")
	if misc.ModelName == "" || s.State().Names[misc.ModelName] != "misc" {
		t.Errorf("the renamed free topic: %+v, names %v", misc, s.State().Names)
	}
	if _, err := s.Undo(s.Status().Version); err != nil {
		t.Fatal(err)
	}
	wantStatus, wantState, wantTopics, wantRounds := s.Status(), s.State(), s.Topics(10), s.Rounds()
	// The documents as the fit left them (the round's doc-topics.bin).
	wantDocs, err := s.TopicDocs("space", 20)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, roundsDir, roundName(3), fileDocTopics)); err != nil {
		t.Errorf("the round's training weights: %v", err)
	}
	wantDiff, err := s.Diff(3)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()

	p, err := ReadProject(dir)
	if err != nil {
		t.Fatal(err)
	}
	if p.Current != 3 || !reflect.DeepEqual(p.Redo, []int{4}) || p.Seed != 7 || p.Source[1] != "demo" || p.Corpus.Docs != 160 {
		t.Errorf("project.json: %+v", p)
	}
	r := reopen(t, Config{Corpus: c, Project: dir})
	st := r.Status()
	if st.Round != 3 || st.Version != wantStatus.Version || !st.CanRedo || !strings.Contains(strings.Join(st.Notes, "\n"), "resumed at round 3") {
		t.Errorf("resumed status %+v, want round 3 at version %d", st, wantStatus.Version)
	}
	if !reflect.DeepEqual(r.State(), wantState) {
		t.Errorf("resumed state %+v, want %+v", r.State(), wantState)
	}
	if got := r.Topics(10); !reflect.DeepEqual(got, wantTopics) {
		t.Errorf("resumed topics differ:\n%+v\n%+v", got, wantTopics)
	}
	if got, err := r.TopicDocs("space", 20); err != nil || !reflect.DeepEqual(got, wantDocs) {
		t.Errorf("resumed topic documents differ (%v):\n%+v\n%+v", err, got, wantDocs)
	}
	if got := r.Rounds(); !reflect.DeepEqual(got, wantRounds) {
		t.Errorf("resumed rounds %+v, want %+v", got, wantRounds)
	}
	if got, err := r.Diff(3); err != nil || !reflect.DeepEqual(got, wantDiff) {
		t.Errorf("resumed diff of round 3: %v\n%+v\n%+v", err, got, wantDiff)
	}
	if _, err := r.Redo(st.Version); err != nil {
		t.Fatal(err)
	}
	if st := r.Status(); st.Round != 4 || len(r.State().Names) == 0 {
		t.Errorf("redo after resume: %+v, names %v", st, r.State().Names)
	}
	// A resumed project goes on: the next round is 5, from round 4.
	if rs := apply(t, r, Edit{Op: OpSetK, K: 6}); rs.Number != 5 || rs.Parent != 4 {
		t.Errorf("the round after resuming: %+v", rs)
	}
}

func TestResumeChecksTheCorpus(t *testing.T) {
	dir := t.TempDir()
	s := open(t, Config{Corpus: demoCorpus(t, 120, false), K: 4, Project: dir})
	s.Close()
	_, err := Open(context.Background(), Config{Corpus: demoCorpus(t, 121, false), Project: dir})
	if err == nil || !strings.Contains(err.Error(), "not on this corpus") || !strings.Contains(err.Error(), "121 documents") {
		t.Errorf("resuming on another corpus: %v", err)
	}
	// A folder that holds something else is no project folder.
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "notes.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Open(context.Background(), Config{Corpus: demoCorpus(t, 120, false), K: 4, Project: other})
	if err == nil || !strings.Contains(err.Error(), "notes.txt") {
		t.Errorf("a folder with other files: %v", err)
	}
}

// TestCrashRecovery leaves in the project folder what a kill -9 during a
// save leaves — a hidden half-written round folder, a stale temporary of
// project.json, a round folder without its files (which a rename never
// makes, but a person copying folders may), and a round saved whose
// record in project.json was not yet written — and resumes.
func TestCrashRecovery(t *testing.T) {
	c := demoCorpus(t, 120, false)
	dir := t.TempDir()
	s := open(t, Config{Corpus: c, K: 4, Project: dir})
	apply(t, s, Edit{Op: OpCreateTopic, Name: "space", Words: []string{"rocket"}})
	wantTopics := s.Topics(10)
	s.Close()

	rounds := filepath.Join(dir, roundsDir)
	// A dead writer's hidden round (process 999999999 runs nowhere).
	hidden := filepath.Join(rounds, ".000003.tmp-999999999-42")
	if err := os.MkdirAll(hidden, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(hidden, fileAnchors), []byte("spa"), 0o644); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(dir, ".project.json.tmp-999999999-7")
	if err := os.WriteFile(stale, []byte(`{"format": 1, "curr`), 0o644); err != nil {
		t.Fatal(err)
	}
	incomplete := filepath.Join(rounds, "000004")
	if err := os.MkdirAll(incomplete, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(incomplete, fileAnchors), []byte("space: rocket\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// project.json as it was before round 2 was recorded.
	var p Project
	if err := readJSON(filepath.Join(dir, projectFile), &p); err != nil {
		t.Fatal(err)
	}
	p.Current, p.Version, p.K = 1, 0, 4
	b, _ := json.Marshal(p)
	if err := os.WriteFile(filepath.Join(dir, projectFile), b, 0o644); err != nil {
		t.Fatal(err)
	}

	r := reopen(t, Config{Corpus: c, Project: dir})
	st := r.Status()
	notes := strings.Join(st.Notes, "\n")
	if st.Round != 2 || st.Version != 1 {
		t.Errorf("resumed at round %d, version %d; want round 2, the one saved before the kill, at version 1", st.Round, st.Version)
	}
	for _, want := range []string{"removed 2 temporaries", "round 4 was incomplete", "round 2 was saved but not yet recorded"} {
		if !strings.Contains(notes, want) {
			t.Errorf("the notes do not say %q:\n%s", want, notes)
		}
	}
	for _, gone := range []string{hidden, stale, incomplete} {
		if _, err := os.Stat(gone); !os.IsNotExist(err) {
			t.Errorf("%s is still there", gone)
		}
	}
	if !reflect.DeepEqual(r.Topics(10), wantTopics) {
		t.Error("the resumed round's topics differ")
	}
	if p, err := ReadProject(dir); err != nil || p.Current != 2 {
		t.Errorf("project.json after resuming: %+v, %v", p, err)
	}
	if rs := apply(t, r, Edit{Op: OpSetK, K: 6}); rs.Number != 3 || rs.Parent != 2 {
		t.Errorf("the next round: %+v", rs)
	}
}
