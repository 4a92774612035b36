package capi

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/demo"
	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/sparse"
)

// wait polls job h to its end, as the Python package does.
func wait(t *testing.T, r *Registry, h int64) (int64, []Event, error) {
	t.Helper()
	var all []Event
	for {
		res, evs, err := r.Wait(h, 50*time.Millisecond)
		all = append(all, evs...)
		if CodeOf(err) == Pending {
			continue
		}
		r.Release(h)
		return res, all, err
	}
}

func demoTexts(t *testing.T) ([]string, [][]string) {
	t.Helper()
	d, err := demo.Load()
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	var labels [][]string
	for i, doc := range d.Corpus.Docs {
		texts = append(texts, doc.Text)
		if i%3 == 0 {
			labels = append(labels, doc.Labels)
		} else {
			labels = append(labels, nil)
		}
	}
	return texts, labels
}

func start(t *testing.T, r *Registry, op string, req any, target int64, in Input) (int64, []Event, error) {
	t.Helper()
	b, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	h, err := r.Start(op, b, target, in)
	if err != nil {
		return 0, nil, err
	}
	return wait(t, r, h)
}

func TestFitTransformPredictSaveLoad(t *testing.T) {
	r := NewRegistry()
	texts, labels := demoTexts(t)
	m, events, err := start(t, r, "fit", map[string]any{"options": map[string]any{"kind": "tsnmf", "seed": 1, "max_iter": 30}, "docs": texts, "labels": labels}, 0, Input{})
	if err != nil {
		t.Fatal(err)
	}
	if len(events) == 0 {
		t.Error("the fit reported no progress")
	}
	d, err := r.Describe(m)
	if err != nil {
		t.Fatal(err)
	}
	var info modelInfo
	if err := json.Unmarshal(d, &info); err != nil {
		t.Fatal(err)
	}
	if info.Kind != "tsnmf" || !info.HasVectorizer || len(info.Labels) == 0 || info.Topics != len(info.TopicNames) {
		t.Fatalf("description %+v", info)
	}
	h, _, err := start(t, r, "predict", map[string]any{"docs": texts[:5]}, m, Input{})
	if err != nil {
		t.Fatal(err)
	}
	d, _ = r.Describe(h)
	var pd struct {
		Meta struct {
			Labels [][]string `json:"labels"`
		} `json:"meta"`
		Matrices map[string]shape `json:"matrices"`
	}
	if err := json.Unmarshal(d, &pd); err != nil {
		t.Fatal(err)
	}
	if len(pd.Meta.Labels) != 5 || pd.Matrices["scores"].Rows != 5 || pd.Matrices["scores"].Cols != len(info.Labels) {
		t.Fatalf("prediction %s", d)
	}
	scores := make([]float64, 5*len(info.Labels))
	if err := r.CopyMatrix(h, "scores", scores); err != nil {
		t.Fatal(err)
	}
	if err := r.CopyMatrix(h, "scores", scores[1:]); err == nil {
		t.Error("a buffer of the wrong size was accepted")
	}
	// Save to bytes and load them: the loaded model predicts the same.
	s, _, err := start(t, r, "save", nil, m, Input{})
	if err != nil {
		t.Fatal(err)
	}
	res, _ := r.result(s)
	m2, _, err := start(t, r, "load", nil, 0, Input{Bytes: res.Bytes})
	if err != nil {
		t.Fatal(err)
	}
	h2, _, err := start(t, r, "predict", map[string]any{"docs": texts[:5]}, m2, Input{})
	if err != nil {
		t.Fatal(err)
	}
	scores2 := make([]float64, len(scores))
	if err := r.CopyMatrix(h2, "scores", scores2); err != nil {
		t.Fatal(err)
	}
	for i := range scores {
		if scores[i] != scores2[i] {
			t.Fatalf("score %d: %v before saving, %v after loading", i, scores[i], scores2[i])
		}
	}
	for _, h := range []int64{m, h, s, m2, h2} {
		r.Release(h)
	}
	if n := r.Len(); n != 0 {
		t.Errorf("%d objects left after releasing them all", n)
	}
}

func TestMatrixInputAndComponents(t *testing.T) {
	r := NewRegistry()
	x := sparse.FromDense(mat.NewDense(4, 3, []float64{1, 0, 2, 0, 3, 1, 2, 1, 0, 1, 1, 1}))
	m, _, err := start(t, r, "fit", map[string]any{"options": map[string]any{"kind": "nmf", "k": 2, "seed": 1}, "vocab": []string{"a", "b", "c"}}, 0, Input{X: x})
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := start(t, r, "components", nil, m, Input{})
	if err != nil {
		t.Fatal(err)
	}
	comp := make([]float64, 6)
	if err := r.CopyMatrix(c, "components", comp); err != nil {
		t.Fatal(err)
	}
	for k := 0; k < 2; k++ {
		if s := comp[3*k] + comp[3*k+1] + comp[3*k+2]; s < 0.999 || s > 1.001 {
			t.Errorf("topic %d's weights sum to %v, want 1 (normalised rows)", k, s)
		}
	}
	// A matrix of another width, and text for a model fitted on a matrix.
	y := sparse.FromDense(mat.NewDense(1, 2, []float64{1, 1}))
	if _, _, err := start(t, r, "transform", nil, m, Input{X: y}); err == nil || !strings.Contains(err.Error(), "2 features") {
		t.Errorf("transform of 2 columns: %v", err)
	}
	if _, _, err := start(t, r, "transform", map[string]any{"docs": []string{"a b"}}, m, Input{}); err == nil || CodeOf(err) != Value {
		t.Errorf("text for a matrix model: %v", err)
	}
}

func TestErrorCodes(t *testing.T) {
	r := NewRegistry()
	texts, _ := demoTexts(t)
	cases := []struct {
		req  any
		code Code
		want string
	}{
		{map[string]any{"options": map[string]any{"kind": "nmf", "k": "three"}, "docs": texts}, Type, "k"},
		{map[string]any{"options": map[string]any{"kind": "nmf", "k": 3, "colour": 1}, "docs": texts}, Value, "colour"},
		{map[string]any{"options": map[string]any{"kind": "nmf", "k": 3}, "docs": texts, "anchors_file": "does-not-exist.txt"}, NotFound, "anchors"},
		{map[string]any{"options": map[string]any{"kind": "nmf", "k": 3}, "docs": texts, "anchors": "space rocket"}, Value, "anchors:1"},
		{map[string]any{"options": map[string]any{"kind": "nmf", "k": 3}, "docs": texts, "labels": [][]string{{"a"}}}, Value, "y:"},
		{map[string]any{"options": map[string]any{"kind": "nope"}, "docs": texts}, Value, "unknown kind"},
	}
	for _, c := range cases {
		_, _, err := start(t, r, "fit", c.req, 0, Input{})
		if err == nil || CodeOf(err) != c.code || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v (code %d), want code %d naming %q", c.req, err, CodeOf(err), c.code, c.want)
		}
	}
	if _, err := r.Start("nope", nil, 0, Input{}); CodeOf(err) != Runtime {
		t.Errorf("unknown operation: %v", err)
	}
	if _, err := r.Start("transform", nil, 12345, Input{}); CodeOf(err) != Runtime {
		t.Errorf("unknown handle: %v", err)
	}
}

func TestCancel(t *testing.T) {
	r := NewRegistry()
	// A fit that never meets its tolerance: it runs until cancelled.
	src := rand.New(rand.NewPCG(1, 2))
	x := mat.NewDense(300, 200, nil)
	for i := 0; i < 300; i++ {
		for j := 0; j < 200; j++ {
			if src.Float64() < 0.1 {
				x.Set(i, j, float64(1+src.IntN(3)))
			}
		}
	}
	vocab := make([]string, 200)
	for j := range vocab {
		vocab[j] = fmt.Sprint("w", j)
	}
	b, _ := json.Marshal(map[string]any{"options": map[string]any{"kind": "nmf", "k": 5, "max_iter": 100000000, "tol": 1e-300}, "vocab": vocab})
	h, err := r.Start("fit", b, 0, Input{X: sparse.FromDense(x)})
	if err != nil {
		t.Fatal(err)
	}
	// Wait until it runs (it has reported an iteration), then cancel it.
	for {
		_, evs, err := r.Wait(h, 10*time.Millisecond)
		if CodeOf(err) != Pending {
			t.Fatalf("the fit ended before it was cancelled: %v", err)
		}
		if len(evs) > 0 {
			break
		}
	}
	if err := r.Cancel(h); err != nil {
		t.Fatal(err)
	}
	_, _, err = wait(t, r, h)
	if CodeOf(err) != Canceled {
		t.Fatalf("cancelled fit: %v (code %d), want code %d", err, CodeOf(err), Canceled)
	}
	if _, _, err := r.Wait(h, 0); err == nil {
		t.Error("a released job still answers")
	}
}

func TestCodeOf(t *testing.T) {
	if CodeOf(errors.New("x")) != Value || CodeOf(nil) != OK || CodeOf(typeErr("x")) != Type {
		t.Error("CodeOf misclassifies")
	}
}

// A fit of the demo corpus's texts as the C ABI runs it: start a job,
// poll it, read the model's description.
func ExampleRegistry() {
	r := NewRegistry()
	d, err := demo.Load()
	if err != nil {
		fmt.Println(err)
		return
	}
	var texts []string
	for _, doc := range d.Corpus.Docs {
		texts = append(texts, doc.Text)
	}
	req, _ := json.Marshal(map[string]any{"options": map[string]any{"kind": "nmf", "k": 4, "seed": 1}, "docs": texts})
	job, err := r.Start("fit", req, 0, Input{})
	if err != nil {
		fmt.Println(err)
		return
	}
	var m int64
	for {
		m, _, err = r.Wait(job, 100*time.Millisecond)
		if CodeOf(err) != Pending {
			break
		}
	}
	r.Release(job)
	if err != nil {
		fmt.Println(err)
		return
	}
	desc, _ := r.Describe(m)
	var info struct {
		Kind   string `json:"kind"`
		Topics int    `json:"topics"`
	}
	json.Unmarshal(desc, &info)
	fmt.Println(info.Kind, info.Topics, "topics")
	// Output: nmf 4 topics
}

// A step whose objective was not computed (NaN: LDA's passes between
// evaluations) is an event without one, and the events stay encodable.
func TestEventWithoutObjective(t *testing.T) {
	var j job
	j.report(progress.Step{Iter: 1, Objective: math.NaN()})
	j.report(progress.Step{Iter: 2, Objective: 3.5})
	b, err := json.Marshal(j.events)
	if err != nil || string(b) != `[{"iter":1,"objective":null,"seconds":0},{"iter":2,"objective":3.5,"seconds":0}]` {
		t.Errorf("events %s, %v", b, err)
	}
}
