package capi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/demo"
	"github.com/semitopic/semitopic/model"
	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/sparse"
)

// fitted is a model of package model under a handle.
type fitted struct {
	f *model.Fitted
	// seconds is the wall time of model.Fit in the fit that made it (0
	// for a loaded model): what the caller's fit cost beyond it is the
	// cost of the call.
	seconds float64
}

// modelInfo is how Describe writes a model.
type modelInfo struct {
	Kind          string     `json:"kind"`
	Topics        int        `json:"topics"`
	TopicNames    []string   `json:"topic_names"`
	Labels        []string   `json:"labels"`
	Terms         int        `json:"terms"`
	HasVectorizer bool       `json:"has_vectorizer"`
	Converged     bool       `json:"converged"`
	Dropped       int        `json:"dropped"`
	Info          model.Info `json:"info"`
	Notes         []string   `json:"notes"`
	Empty         []bool     `json:"empty"`
	Groups        []string   `json:"groups"`
	Weights       []float64  `json:"weights"`
	// FitSeconds is the wall time of model.Fit in the fit that made the
	// model (0 for a loaded one).
	FitSeconds float64 `json:"fit_seconds"`
}

func (o *fitted) describe() (any, error) {
	f := o.f
	ts, err := f.Model.Topics(1)
	if err != nil {
		return nil, err
	}
	d := modelInfo{
		Kind: f.Model.Kind(), Topics: f.Model.NumTopics(), Terms: len(f.Vocab), HasVectorizer: f.Vectorizer != nil,
		Converged: f.Info.Convergence.Status == progress.Converged, Dropped: f.Info.Dropped, Info: f.Info,
		Notes: f.Info.Notes, Labels: []string{}, FitSeconds: o.seconds,
	}
	for _, t := range ts {
		d.TopicNames = append(d.TopicNames, t.Name)
		d.Empty = append(d.Empty, t.Empty)
		d.Groups = append(d.Groups, t.Group)
		d.Weights = append(d.Weights, t.Weight)
	}
	if p, ok := model.AsPredictor(f.Model); ok {
		d.Labels = p.Labels()
	}
	return d, nil
}

// fitReq is the request of "fit".
type fitReq struct {
	// Options are model.Options as JSON (their field names).
	Options json.RawMessage `json:"options"`
	// Anchors is the anchors grammar (model.ParseAnchors), AnchorsFile
	// the path of an anchors file; at most one is given.
	Anchors     string `json:"anchors"`
	AnchorsFile string `json:"anchors_file"`
	// Labels has one entry per document: its labels, none when
	// unlabeled.
	Labels [][]string `json:"labels"`
	// Docs are the documents' texts (text input), Vocab the columns of
	// Input.X (matrix input; x0, x1, … when not given).
	Docs  []string `json:"docs"`
	Vocab []string `json:"vocab"`
}

// documents turns texts into corpus documents named by their position.
func documents(texts []string) []corpus.Document {
	docs := make([]corpus.Document, len(texts))
	for i, t := range texts {
		docs[i] = corpus.Document{ID: fmt.Sprint(i), Text: t}
	}
	return docs
}

func opFit(ctx context.Context, raw json.RawMessage, _ any, in Input, report progress.Func) (any, error) {
	var req fitReq
	if err := decode(raw, &req); err != nil {
		return nil, err
	}
	var o model.Options
	if len(req.Options) > 0 {
		if err := decode(req.Options, &o); err != nil {
			return nil, fmt.Errorf("options: %w", err)
		}
	}
	switch {
	case req.Anchors != "" && req.AnchorsFile != "":
		return nil, fmt.Errorf("anchors: give the grammar or a file, not both")
	case req.Anchors != "":
		a, err := model.ParseAnchors("anchors", strings.NewReader(req.Anchors))
		if err != nil {
			return nil, err
		}
		o.Anchors = a
	case req.AnchorsFile != "":
		a, err := model.ReadAnchors(req.AnchorsFile)
		if err != nil {
			return nil, fmt.Errorf("anchors: %w", err)
		}
		o.Anchors = a
	}
	n := len(req.Docs)
	if in.X != nil {
		n = in.X.Rows
	}
	if req.Labels != nil && len(req.Labels) != n {
		return nil, fmt.Errorf("y: %d label lists for %d documents", len(req.Labels), n)
	}
	o.Labels = req.Labels
	o.Progress = report
	var src model.Source
	switch {
	case in.X != nil && req.Docs != nil:
		return nil, fmt.Errorf("input X: give a matrix or documents, not both")
	case in.X != nil:
		vocab := req.Vocab
		if vocab == nil {
			// Unnamed columns are x0, x1, … as scikit-learn names them.
			vocab = make([]string, in.X.Cols)
			for j := range vocab {
				vocab[j] = "x" + strconv.Itoa(j)
			}
		}
		if len(vocab) != in.X.Cols {
			return nil, fmt.Errorf("input X: %d column names for %d columns", len(vocab), in.X.Cols)
		}
		src = model.Matrix(in.X, vocab)
	case req.Docs != nil:
		src = model.Text(&corpus.Corpus{Name: "documents", Docs: documents(req.Docs)}, nil)
	default:
		return nil, fmt.Errorf("input X: no documents")
	}
	start := time.Now()
	f, err := model.Fit(ctx, src, o)
	if err != nil {
		return nil, err
	}
	return &fitted{f: f, seconds: time.Since(start).Seconds()}, nil
}

func target[T any](t any, what string) (T, error) {
	v, ok := t.(T)
	if !ok {
		var zero T
		return zero, runtimeErr("the operation needs %s", what)
	}
	return v, nil
}

// docsReq is a request that may carry documents' texts.
type docsReq struct {
	Docs []string `json:"docs"`
}

// matrixOf returns the documents of a transform or predict request as a
// matrix over the model's vocabulary: in.X as it is, or the texts read by
// the model's vectorizer.
func (o *fitted) matrixOf(ctx context.Context, raw json.RawMessage, in Input) (*sparse.CSR, error) {
	var req docsReq
	if err := decode(raw, &req); err != nil {
		return nil, err
	}
	if in.X != nil {
		if in.X.Cols != len(o.f.Vocab) {
			return nil, fmt.Errorf("input X: %d features, but the model was fitted on %d", in.X.Cols, len(o.f.Vocab))
		}
		return in.X, nil
	}
	if req.Docs == nil {
		return nil, fmt.Errorf("input X: no documents")
	}
	if o.f.Vectorizer == nil {
		return nil, fmt.Errorf("input X: the model was fitted on a matrix; give it a matrix with its %d features, not text", len(o.f.Vocab))
	}
	res, err := o.f.Vectorize(ctx, documents(req.Docs))
	if err != nil {
		return nil, err
	}
	if res.X.Rows != len(req.Docs) {
		return nil, fmt.Errorf("input X: the vectorizer kept %d of %d documents", res.X.Rows, len(req.Docs))
	}
	return res.X, nil
}

func opTransform(ctx context.Context, raw json.RawMessage, t any, in Input, _ progress.Func) (any, error) {
	o, err := target[*fitted](t, "a model")
	if err != nil {
		return nil, err
	}
	x, err := o.matrixOf(ctx, raw, in)
	if err != nil {
		return nil, err
	}
	w, err := o.f.Model.Transform(ctx, x)
	if err != nil {
		return nil, err
	}
	return &Result{Mats: map[string]*mat.Dense{"weights": orEmpty(w, x.Rows, o.f.Model.NumTopics())}}, nil
}

// orEmpty returns m, or a rows × cols zero matrix for an empty m (gonum
// has no matrix with zero rows).
func orEmpty(m *mat.Dense, rows, cols int) *mat.Dense {
	if m == nil || m.IsEmpty() {
		if rows == 0 || cols == 0 {
			return &mat.Dense{}
		}
		return mat.NewDense(rows, cols, nil)
	}
	return m
}

func opPredict(ctx context.Context, raw json.RawMessage, t any, in Input, _ progress.Func) (any, error) {
	o, err := target[*fitted](t, "a model")
	if err != nil {
		return nil, err
	}
	p, ok := model.AsPredictor(o.f.Model)
	if !ok {
		return nil, fmt.Errorf("the %s model predicts no labels: fit it with labels (y)", o.f.Model.Kind())
	}
	x, err := o.matrixOf(ctx, raw, in)
	if err != nil {
		return nil, err
	}
	pr, err := p.Predict(ctx, x)
	if err != nil {
		return nil, err
	}
	labels := pr.Labels
	for i := range labels {
		if labels[i] == nil {
			labels[i] = []string{}
		}
	}
	return &Result{
		Meta: map[string]any{"labels": labels, "label_names": p.Labels()},
		Mats: map[string]*mat.Dense{"scores": orEmpty(pr.Scores, x.Rows, len(p.Labels())), "weights": orEmpty(pr.Weights, x.Rows, o.f.Model.NumTopics())},
	}, nil
}

func opTopics(_ context.Context, raw json.RawMessage, t any, _ Input, _ progress.Func) (any, error) {
	o, err := target[*fitted](t, "a model")
	if err != nil {
		return nil, err
	}
	var req struct {
		N int `json:"n"`
	}
	if err := decode(raw, &req); err != nil {
		return nil, err
	}
	ts, err := o.f.Model.Topics(req.N)
	if err != nil {
		return nil, err
	}
	return &Result{Meta: ts}, nil
}

// opComponents returns the topics × terms weights, as Topics gives them
// (each kind's own weight: see model.Word).
func opComponents(_ context.Context, _ json.RawMessage, t any, _ Input, _ progress.Func) (any, error) {
	o, err := target[*fitted](t, "a model")
	if err != nil {
		return nil, err
	}
	ts, err := o.f.Model.Topics(0)
	if err != nil {
		return nil, err
	}
	col := make(map[string]int, len(o.f.Vocab))
	for j, w := range o.f.Vocab {
		col[w] = j
	}
	c := mat.NewDense(len(ts), len(o.f.Vocab), nil)
	for i, tp := range ts {
		for _, w := range tp.Words {
			j, ok := col[w.Word]
			if !ok {
				return nil, runtimeErr("topic %q: word %q is not in the vocabulary", tp.Name, w.Word)
			}
			c.Set(i, j, w.Weight)
		}
	}
	return &Result{Mats: map[string]*mat.Dense{"components": c}}, nil
}

func opVectorize(ctx context.Context, raw json.RawMessage, t any, _ Input, _ progress.Func) (any, error) {
	o, err := target[*fitted](t, "a model")
	if err != nil {
		return nil, err
	}
	var req docsReq
	if err := decode(raw, &req); err != nil {
		return nil, err
	}
	if o.f.Vectorizer == nil {
		return nil, fmt.Errorf("the model was fitted on a matrix and has no vectorizer")
	}
	res, err := o.f.Vectorize(ctx, documents(req.Docs))
	if err != nil {
		return nil, err
	}
	return &Result{CSR: map[string]*sparse.CSR{"X": res.X}}, nil
}

func opSave(_ context.Context, _ json.RawMessage, t any, _ Input, _ progress.Func) (any, error) {
	o, err := target[*fitted](t, "a model")
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := model.Save(&b, o.f); err != nil {
		return nil, err
	}
	return &Result{Bytes: b.Bytes()}, nil
}

type pathReq struct {
	Path string `json:"path"`
}

func opSaveFile(_ context.Context, raw json.RawMessage, t any, _ Input, _ progress.Func) (any, error) {
	o, err := target[*fitted](t, "a model")
	if err != nil {
		return nil, err
	}
	var req pathReq
	if err := decode(raw, &req); err != nil {
		return nil, err
	}
	if err := model.SaveFile(req.Path, o.f); err != nil {
		return nil, err
	}
	return &Result{}, nil
}

func opLoad(_ context.Context, _ json.RawMessage, _ any, in Input, _ progress.Func) (any, error) {
	f, err := model.Load(bytes.NewReader(in.Bytes))
	if err != nil {
		return nil, err
	}
	return &fitted{f: f}, nil
}

func opLoadFile(_ context.Context, raw json.RawMessage, _ any, _ Input, _ progress.Func) (any, error) {
	var req pathReq
	if err := decode(raw, &req); err != nil {
		return nil, err
	}
	f, err := model.LoadFile(req.Path)
	if err != nil {
		return nil, err
	}
	return &fitted{f: f}, nil
}

// kindInfo describes a kind for the caller: its options, as model
// declares them.
type kindInfo struct {
	Name   string      `json:"name"`
	Doc    string      `json:"doc"`
	Preset string      `json:"preset"`
	Takes  model.Takes `json:"takes"`
	Params []paramInfo `json:"params"`
}

type paramInfo struct {
	Name    string   `json:"name"`
	Field   string   `json:"field"`
	Doc     string   `json:"doc"`
	Default string   `json:"default"`
	Choices []string `json:"choices,omitempty"`
}

// opKinds lists the kinds with their options, each named by its flag and
// by its field of model.Options as JSON.
func opKinds(context.Context, json.RawMessage, any, Input, progress.Func) (any, error) {
	fields := map[string]string{}
	for _, opt := range model.AllOptions() {
		var o model.Options
		ptr := opt.Field(&o)
		// Setting the field and encoding o finds its JSON name.
		switch p := ptr.(type) {
		case *int:
			*p = 1
		case *uint64:
			*p = 1
		case *float64:
			*p = 1
		case *string:
			*p = "x"
		case *bool:
			*p = true
		}
		var zero, set map[string]any
		zb, _ := json.Marshal(model.Options{})
		sb, _ := json.Marshal(o)
		json.Unmarshal(zb, &zero)
		json.Unmarshal(sb, &set)
		for k, v := range set {
			if fmt.Sprint(zero[k]) != fmt.Sprint(v) {
				fields[opt.Name] = k
			}
		}
	}
	var out []kindInfo
	for _, n := range model.Kinds() {
		k, err := model.KindOf(n)
		if err != nil {
			return nil, err
		}
		ki := kindInfo{Name: n, Doc: k.Doc(), Preset: k.Preset(), Takes: k.Takes()}
		for _, p := range k.Params() {
			ki.Params = append(ki.Params, paramInfo{Name: p.Name, Field: fields[p.Name], Doc: p.Doc, Default: p.Default, Choices: p.Choices})
		}
		out = append(out, ki)
	}
	return &Result{Meta: out}, nil
}

// opDemo returns the embedded demo corpus (package demo): its texts, the
// labels of the labeled documents (none for the others) and every
// document's planted themes.
func opDemo(context.Context, json.RawMessage, any, Input, progress.Func) (any, error) {
	d, err := demo.Load()
	if err != nil {
		return nil, err
	}
	n := len(d.Corpus.Docs)
	texts, labels := make([]string, n), make([][]string, n)
	for i, doc := range d.Corpus.Docs {
		texts[i], labels[i] = doc.Text, doc.Labels
		if labels[i] == nil {
			labels[i] = []string{}
		}
	}
	return &Result{Meta: map[string]any{"texts": texts, "labels": labels, "truth": d.Truth}}, nil
}

// opVocab returns the model's vocabulary, in column order (apart from
// the description, which a fit reads at once: a large vocabulary costs
// its decoding only to a caller that asks).
func opVocab(_ context.Context, _ json.RawMessage, t any, _ Input, _ progress.Func) (any, error) {
	o, err := target[*fitted](t, "a model")
	if err != nil {
		return nil, err
	}
	return &Result{Meta: o.f.Vocab}, nil
}

// opNamed returns the operation Start runs under name.
func opNamed(name string) (opFunc, bool) {
	switch name {
	case "kinds":
		return opKinds, true
	case "demo":
		return opDemo, true
	case "fit":
		return opFit, true
	case "transform":
		return opTransform, true
	case "predict":
		return opPredict, true
	case "topics":
		return opTopics, true
	case "components":
		return opComponents, true
	case "vocab":
		return opVocab, true
	case "vectorize":
		return opVectorize, true
	case "save":
		return opSave, true
	case "save_file":
		return opSaveFile, true
	case "load":
		return opLoad, true
	case "load_file":
		return opLoadFile, true
	case "corex_fit":
		return opCorexFit, true
	case "corex_infer":
		return opCorexInfer, true
	case "corex_topics":
		return opCorexTopics, true
	case "corex_state":
		return opCorexState, true
	case "corex_from_state":
		return opCorexFromState, true
	case "ssnmf_mult":
		return opSSNMFMult, true
	}
	return nil, false
}
