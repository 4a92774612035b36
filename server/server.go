package server

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/semitopic/semitopic/internal/jsonapi"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"sort"
	"strconv"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/model"
)

//go:embed index.html
var indexHTML []byte

// Options bound what a client may ask. Zero fields take the defaults.
type Options struct {
	// MaxBodyBytes bounds a request body (default 4 MiB).
	MaxBodyBytes int64
	// MaxDocuments bounds the documents of one transform request
	// (default 1,000).
	MaxDocuments int
	// Logger receives one structured line per request (default: discard).
	Logger *slog.Logger
	// BodyTimeout bounds the time a client takes to send a request body
	// (default 30 s); a slower body is answered 408 Request Timeout.
	BodyTimeout time.Duration
}

func (o *Options) defaults() {
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = 4 << 20
	}
	if o.MaxDocuments <= 0 {
		o.MaxDocuments = 1000
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.BodyTimeout <= 0 {
		o.BodyTimeout = 30 * time.Second
	}
}

// Server serves one fitted model.
type Server struct {
	f      *model.Fitted
	opts   Options
	topics []model.Topic // with 10 words; computed once
	names  []string
	// predictor and labels are set for models that predict labels.
	predictor model.Predictor
	labels    []string
	// info is the model's fit information as the API sends it: JSON with
	// no null (jsonapi.NoNulls).
	info any
	api  *jsonapi.Mux
}

// New returns a Server for f. The model must be able to read text (fitted
// with a text pipeline).
func New(f *model.Fitted, o Options) (*Server, error) {
	if f == nil || f.Model == nil {
		return nil, errors.New("server: no model")
	}
	if f.Vectorizer == nil {
		return nil, errors.New("server: the model was fitted on an already-vectorized corpus and cannot read text")
	}
	o.defaults()
	topics, err := listTopics(f.Model, 10)
	if err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	info, err := jsonapi.NoNulls(f.Info)
	if err != nil {
		return nil, fmt.Errorf("server: the model's fit information: %w", err)
	}
	s := &Server{f: f, opts: o, topics: topics, info: info}
	if p, ok := model.AsPredictor(f.Model); ok {
		s.predictor, s.labels = p, p.Labels()
	}
	for _, t := range s.topics {
		s.names = append(s.names, t.Name)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", s.health)
	mux.HandleFunc("GET /v1/model", s.modelInfo)
	mux.HandleFunc("GET /v1/topics", s.topicsList)
	mux.HandleFunc("POST /v1/transform", s.transform)
	mux.HandleFunc("GET /{$}", s.index)
	s.api = &jsonapi.Mux{Mux: mux, Logger: o.Logger, WriteError: writeError,
		Endpoints: "GET /healthz, GET /v1/model, GET /v1/topics, POST /v1/transform and the page at /"}
	return s, nil
}

// ServeHTTP implements http.Handler with request logging and panic
// recovery.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.api.ServeHTTP(w, r)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}

func (s *Server) health(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

func (s *Server) modelInfo(w http.ResponseWriter, _ *http.Request) {
	info := map[string]any{
		"kind":         s.f.Model.Kind(),
		"topics":       s.f.Model.NumTopics(),
		"topic_names":  s.names,
		"empty_topics": emptyTopicNames(s.topics),
		"vocabulary":   len(s.f.Vocab),
		"info":         s.info,
	}
	if s.predictor != nil {
		info["labels"] = s.labels
		info["score_kind"] = model.ScoreKindOf(s.predictor)
	}
	writeJSON(w, http.StatusOK, info)
}

func (s *Server) topicsList(w http.ResponseWriter, r *http.Request) {
	n := 10
	if q := r.URL.Query().Get("n"); q != "" {
		v, err := strconv.Atoi(q)
		if err != nil || v < 1 || v > 1000 {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("the query parameter n (words per topic) must be a whole number from 1 to 1000, not %q", q))
			return
		}
		n = v
	}
	topics := s.topics
	if n != 10 {
		var err error
		if topics, err = listTopics(s.f.Model, n); err != nil {
			writeError(w, http.StatusInternalServerError, "could not list the topics: "+err.Error())
			return
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"topics": topics, "empty_topics": emptyTopicNames(topics)})
}

// listTopics is m's topics with n words each, every list [] rather than
// null in JSON.
func listTopics(m model.Model, n int) ([]model.Topic, error) {
	ts, err := m.Topics(n)
	if err != nil {
		return nil, err
	}
	for i := range ts {
		if ts[i].Words == nil {
			ts[i].Words = []model.Word{}
		}
	}
	return ts, nil
}

// emptyTopicNames names the empty topics (model.EmptyTopics; [] when
// none): the page leaves them out of its list and says how many there are.
func emptyTopicNames(ts []model.Topic) []string {
	out := []string{}
	for _, t := range model.EmptyTopics(ts) {
		out = append(out, t.Name)
	}
	return out
}

// DocumentResult is one document of a transform response.
type DocumentResult struct {
	ID string `json:"id"`
	// Topics maps topic names to weights (zero weights left out).
	Topics map[string]float64 `json:"topics"`
	// Top lists the strongest topics, best first: empty ([]), never null,
	// when the document has no topic weight.
	Top []TopicWeight `json:"top"`
	// Labels and Scores are the predicted labels and label scores of
	// supervised models (TransformResponse.ScoreKind says what the scores
	// are); Labels is empty ([]) for a document with no term known to the
	// model, which gives no evidence for any label.
	Labels []string           `json:"labels,omitzero"`
	Scores map[string]float64 `json:"scores,omitempty"`
	// Empty is set when none of the document's terms is in the model's
	// vocabulary (its weights then carry no information).
	Empty bool `json:"empty,omitempty"`
}

// TransformResponse is the body of a /v1/transform response, and what
// Server.Results returns: clients may decode responses into it.
type TransformResponse struct {
	Documents []DocumentResult `json:"documents"`
	// Terms counts the documents' terms and OutOfVocabulary those the
	// model does not know.
	Terms           int `json:"terms"`
	OutOfVocabulary int `json:"out_of_vocabulary"`
	// ScoreKind says what the documents' Scores are (supervised models
	// only): a topic weight, a probability, a margin...
	ScoreKind *model.ScoreKind `json:"score_kind,omitempty"`
}

// TopicWeight is a topic and a document's weight on it.
type TopicWeight struct {
	Topic  string  `json:"topic"`
	Weight float64 `json:"weight"`
}

func (s *Server) transform(w http.ResponseWriter, r *http.Request) {
	// A deadline for the body alone: a client that sends it too slowly is
	// told so rather than that its JSON is invalid.
	rc := http.NewResponseController(w)
	if err := rc.SetReadDeadline(time.Now().Add(s.opts.BodyTimeout)); err != nil {
		s.opts.Logger.Warn("no body deadline", "error", err.Error())
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.opts.MaxBodyBytes))
	if err != nil {
		var tooBig *http.MaxBytesError
		var ne net.Error
		switch {
		case errors.As(err, &tooBig):
			writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body over %d bytes (the server's --max-body): send fewer or shorter documents per request", s.opts.MaxBodyBytes))
		case errors.Is(err, os.ErrDeadlineExceeded) || errors.As(err, &ne) && ne.Timeout():
			w.Header().Set("Connection", "close")
			writeError(w, http.StatusRequestTimeout, fmt.Sprintf("request body not received within %v", s.opts.BodyTimeout))
		default:
			writeError(w, http.StatusBadRequest, "could not read the request body: "+err.Error())
		}
		return
	}
	_ = rc.SetReadDeadline(time.Time{})
	req, err := decodeTransform(body)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	docs := req.docs
	if req.text != nil {
		if len(docs) > 0 {
			writeError(w, http.StatusBadRequest, `give either "text" or "documents", not both`)
			return
		}
		docs = []requestDoc{{ID: "1", Text: *req.text}}
	}
	if len(docs) == 0 {
		writeError(w, http.StatusBadRequest, "no documents: "+requestShape)
		return
	}
	if len(docs) > s.opts.MaxDocuments {
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("%d documents, at most %d per request (the server's --max-documents)", len(docs), s.opts.MaxDocuments))
		return
	}
	top := req.top
	if top <= 0 {
		top = 5
	}
	cdocs := make([]corpus.Document, len(docs))
	for i, d := range docs {
		id := d.ID
		if id == "" {
			id = strconv.Itoa(i + 1)
		}
		cdocs[i] = corpus.Document{ID: id, Text: d.Text}
	}
	res, err := s.Results(r.Context(), cdocs, top)
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			writeError(w, http.StatusServiceUnavailable, "request cancelled")
			return
		}
		writeError(w, http.StatusInternalServerError, "could not transform the documents: "+err.Error())
		return
	}
	writeJSON(w, http.StatusOK, res)
}

// Results transforms documents with the served model: their topic weights,
// strongest topics (top of them) and, for supervised models, labels.
func (s *Server) Results(ctx context.Context, docs []corpus.Document, top int) (*TransformResponse, error) {
	vec, err := s.f.Vectorize(ctx, docs)
	if err != nil {
		return nil, err
	}
	out := make([]DocumentResult, len(docs))
	for i, d := range docs {
		out[i] = DocumentResult{ID: d.ID, Topics: map[string]float64{}, Empty: vec.X.Indptr[i+1] == vec.X.Indptr[i]}
	}
	// A supervised model's prediction carries the topic weights it was
	// computed from: one computation serves both.
	var wt *mat.Dense
	var pred *model.Prediction
	if s.labels != nil {
		if pred, err = s.predictor.Predict(ctx, vec.X); err != nil {
			return nil, err
		}
		wt = pred.Weights
	} else if wt, err = s.f.Model.Transform(ctx, vec.X); err != nil {
		return nil, err
	}
	for i := range docs {
		row := wt.RawRowView(i)
		tw := []TopicWeight{}
		for t, v := range row {
			if v != 0 {
				out[i].Topics[s.names[t]] = v
				tw = append(tw, TopicWeight{s.names[t], v})
			}
		}
		sort.SliceStable(tw, func(a, b int) bool { return tw[a].Weight > tw[b].Weight })
		if len(tw) > top {
			tw = tw[:top]
		}
		out[i].Top = tw
		if pred != nil {
			out[i].Labels = append([]string{}, pred.Labels[i]...)
			out[i].Scores = make(map[string]float64, len(s.labels))
			for j, l := range s.labels {
				out[i].Scores[l] = pred.Scores.At(i, j)
			}
		}
	}
	resp := &TransformResponse{Documents: out, Terms: vec.Terms, OutOfVocabulary: vec.OOV}
	if s.predictor != nil {
		sk := model.ScoreKindOf(s.predictor)
		resp.ScoreKind = &sk
	}
	return resp, nil
}

func (s *Server) index(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'")
	_, _ = w.Write(indexHTML)
}

// ListenAndServe serves h on addr until ctx is cancelled, then shuts down
// gracefully, letting requests in flight finish for up to grace.
func ListenAndServe(ctx context.Context, addr string, h http.Handler, logger *slog.Logger, grace time.Duration) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	return Serve(ctx, ln, h, logger, grace)
}

// Serve is ListenAndServe on an open listener, which it closes.
func Serve(ctx context.Context, ln net.Listener, h http.Handler, logger *slog.Logger, grace time.Duration) error {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
	}
	logger.Info("listening", "addr", ln.Addr().String())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	logger.Info("shutting down", "grace", grace.String())
	sctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	logger.Info("stopped")
	return nil
}

var _ http.Handler = (*Server)(nil)
