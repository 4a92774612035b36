package web

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/semitopic/semitopic/internal/jsonapi"
	"log/slog"
	"net"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/semitopic/semitopic/model"
	"github.com/semitopic/semitopic/server"
	"github.com/semitopic/semitopic/workbench"
)

//go:embed assets
var assets embed.FS

// Options configure a Server. Zero fields take the defaults.
type Options struct {
	// Token, when set, must come with every API request in the
	// X-Semitopic-Token header; NewToken makes one. A server that listens
	// on an address other than loopback must have one.
	Token string
	// Hosts are host names the Host header may give besides the loopback
	// names and addresses and the address a request came in on (a name
	// the server is reached by through a proxy). With a token any host
	// is accepted.
	Hosts []string
	// MaxBodyBytes bounds a request body (default 1 MiB).
	MaxBodyBytes int64
	// Logger receives one structured line per request (default: discard).
	Logger *slog.Logger
	// EventInterval is how often /api/events looks for a change of the
	// status (default 200 ms).
	EventInterval time.Duration
}

func (o *Options) defaults() {
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = 1 << 20
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.EventInterval <= 0 {
		o.EventInterval = 200 * time.Millisecond
	}
}

// Limits of the API beside the body size.
const (
	// MaxN is the largest n a view takes.
	MaxN = 1000
	// MaxQuery is the longest search query or vocabulary prefix, in
	// bytes.
	MaxQuery = 1000
	// MaxQueryString is the longest query string of a request, in bytes.
	MaxQueryString = 4096
	// MaxEditDocs is the most documents one edit names.
	MaxEditDocs = 10000
	// MaxWait is the longest /api/wait waits.
	MaxWait = 50 * time.Second
)

// TokenHeader is the request header that carries the token.
const TokenHeader = "X-Semitopic-Token"

// Server serves one workbench Session. It is an http.Handler.
type Server struct {
	sess *workbench.Session
	opts Options
	api  *jsonapi.Mux
	// done is closed by Close: the event streams and waits end.
	done      chan struct{}
	closeOnce sync.Once
}

// New returns a Server for the session s.
func New(s *workbench.Session, o Options) (*Server, error) {
	if s == nil {
		return nil, errors.New("web: no session")
	}
	o.defaults()
	srv := &Server{sess: s, opts: o, done: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", srv.page("index.html", "text/html; charset=utf-8"))
	mux.HandleFunc("GET /app.js", srv.page("app.js", "text/javascript; charset=utf-8"))
	mux.HandleFunc("GET /app.css", srv.page("app.css", "text/css; charset=utf-8"))
	mux.HandleFunc("GET /api/status", srv.status)
	mux.HandleFunc("GET /api/events", srv.events)
	mux.HandleFunc("GET /api/wait", srv.wait)
	mux.HandleFunc("GET /api/state", srv.state)
	mux.HandleFunc("GET /api/topics", srv.topics)
	mux.HandleFunc("GET /api/topics/{name}/docs", srv.topicDocs)
	mux.HandleFunc("GET /api/search", srv.search)
	mux.HandleFunc("GET /api/docs/{id...}", srv.document)
	mux.HandleFunc("GET /api/vocab", srv.vocab)
	mux.HandleFunc("GET /api/rounds", srv.rounds)
	mux.HandleFunc("GET /api/rounds/{n}/diff", srv.diff)
	mux.HandleFunc("GET /api/suggest", srv.suggest)
	mux.HandleFunc("POST /api/edit", srv.edit)
	mux.HandleFunc("POST /api/refit", srv.refit)
	mux.HandleFunc("POST /api/undo", srv.undo)
	mux.HandleFunc("POST /api/redo", srv.redo)
	mux.HandleFunc("GET /api/export/{what}", srv.export)
	srv.api = &jsonapi.Mux{Mux: mux, Logger: o.Logger, Endpoints: endpoints, WriteError: writeError, Before: srv.before}
	return srv, nil
}

// endpoints lists the API for the answer to an unknown path.
const endpoints = "GET /api/status, /api/events, /api/wait, /api/state, /api/topics, /api/topics/{name}/docs, /api/search, " +
	"/api/docs/{id}, /api/vocab, /api/rounds, /api/rounds/{n}/diff, /api/suggest, /api/export/{what}; " +
	"POST /api/edit, /api/refit, /api/undo, /api/redo; and the page at /"

// Close ends the event streams and the waits in flight, so that a
// graceful shutdown need not wait for them. The Server answers no
// stream or wait after it.
func (s *Server) Close() {
	s.closeOnce.Do(func() { close(s.done) })
}

// ServeHTTP implements http.Handler: the security checks, then the
// route, with one log line per request and panics answered 500.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.api.ServeHTTP(w, r)
}

// before answers, ahead of routing, the requests the security checks
// refuse (check), after setting the security headers on every answer.
func (s *Server) before(w http.ResponseWriter, r *http.Request) bool {
	setSecurityHeaders(w.Header())
	if status, msg := s.check(r); status != 0 {
		writeError(w, status, msg)
		return true
	}
	return false
}

// encode is v as the API sends it: JSON with no null (jsonapi.NoNulls).
func encode(v any) ([]byte, error) {
	x, err := jsonapi.NoNulls(v)
	if err != nil {
		return nil, err
	}
	return json.Marshal(x)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := encode(v)
	if err != nil {
		// A NaN or an infinity has no JSON: say so rather than send half
		// an answer.
		status = http.StatusInternalServerError
		b, _ = json.Marshal(map[string]string{"error": "could not write the answer as JSON: " + err.Error()})
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}

// plain is an engine error's message without the package's prefix.
func plain(err error) string {
	return strings.TrimPrefix(err.Error(), "workbench: ")
}

// writeEngineError answers an error of the session: 409 with the
// versions for a conflict, else status.
func writeEngineError(w http.ResponseWriter, err error, status int) {
	var ce *workbench.ConflictError
	if errors.As(err, &ce) {
		missed := nonNil(ce.Missed)
		writeJSON(w, http.StatusConflict, map[string]any{
			"error":   plain(err),
			"base":    ce.Base,
			"current": ce.Current,
			"missed":  missed,
		})
		return
	}
	writeError(w, status, plain(err))
}

func (s *Server) page(name, contentType string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		b, err := assets.ReadFile("assets/" + name)
		if err != nil {
			writeError(w, http.StatusInternalServerError, "the page's file "+name+" is missing from the binary")
			return
		}
		w.Header().Set("Content-Type", contentType)
		w.Header().Set("Cache-Control", "no-cache")
		_, _ = w.Write(b)
	}
}

func (s *Server) status(w http.ResponseWriter, r *http.Request) {
	if !query(w, r) {
		return
	}
	writeJSON(w, http.StatusOK, s.sess.Status())
}

// waitAnswer is the answer of /api/wait.
type waitAnswer struct {
	Round  workbench.RoundSummary `json:"round"`
	Status workbench.Status       `json:"status"`
}

func (s *Server) wait(w http.ResponseWriter, r *http.Request) {
	if !query(w, r, "version", "timeout") {
		return
	}
	q := r.URL.Query()
	if q.Get("version") == "" {
		writeError(w, http.StatusBadRequest, "the query parameter version (the version to wait for, from /api/status or an edit's answer) is required")
		return
	}
	v, err := strconv.Atoi(q.Get("version"))
	if err != nil || v < 0 {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("the query parameter version must be a whole number ≥ 0, not %q", q.Get("version")))
		return
	}
	timeout := 30 * time.Second
	if t := q.Get("timeout"); t != "" {
		d, err := time.ParseDuration(t)
		if err != nil || d <= 0 || d > MaxWait {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("the query parameter timeout must be a duration such as 30s, above 0 and at most %v, not %q", MaxWait, t))
			return
		}
		timeout = d
	}
	ctx, cancel := context.WithTimeout(r.Context(), timeout)
	defer cancel()
	go func() {
		select {
		case <-s.done:
			cancel()
		case <-ctx.Done():
		}
	}()
	round, err := s.sess.Wait(ctx, v)
	switch {
	case err == nil:
		writeJSON(w, http.StatusOK, waitAnswer{Round: round, Status: s.sess.Status()})
	case ctx.Err() != nil:
		w.Header().Set("Retry-After", "1")
		writeError(w, http.StatusServiceUnavailable, fmt.Sprintf("version %d is not fitted yet after %v: wait again", v, timeout))
	default:
		writeEngineError(w, err, http.StatusUnprocessableEntity)
	}
}

// stateView is the supervision as /api/state sends it.
type stateView struct {
	Kind    string       `json:"kind"`
	K       int          `json:"k"`
	Anchors []anchorView `json:"anchors"`
	// Labels counts the labeled documents per label, the most first;
	// Labeled counts the labeled documents.
	Labels    []labelCount      `json:"labels"`
	Labeled   int               `json:"labeled"`
	Stopwords []string          `json:"stopwords"`
	Removed   []string          `json:"removed"`
	Names     map[string]string `json:"names"`
	// Kinds are the kinds set-kind takes, Supervised those that learn
	// from labels, Ops the edits.
	Kinds      []string `json:"kinds"`
	Supervised []string `json:"supervised"`
	Ops        []string `json:"ops"`
}

type anchorView struct {
	Topic   string     `json:"topic"`
	Seeds   []seedWord `json:"seeds"`
	Exclude []string   `json:"exclude"`
}

type seedWord struct {
	Word     string  `json:"word"`
	Strength float64 `json:"strength,omitempty"`
}

type labelCount struct {
	Label string `json:"label"`
	Docs  int    `json:"docs"`
}

func (s *Server) state(w http.ResponseWriter, r *http.Request) {
	if !query(w, r) {
		return
	}
	st := s.sess.State()
	v := stateView{Kind: st.Kind, K: st.K, Anchors: []anchorView{}, Labels: []labelCount{}, Stopwords: nonNil(st.Stopwords),
		Removed: nonNil(st.Removed), Names: st.Names, Kinds: model.Kinds(), Supervised: model.SupervisedKinds(), Ops: workbench.Ops()}
	for _, a := range st.Anchors {
		av := anchorView{Topic: a.Topic, Seeds: []seedWord{}, Exclude: nonNil(a.Exclude)}
		for i, word := range a.Words {
			sw := seedWord{Word: word}
			if i < len(a.Beta) {
				sw.Strength = a.Beta[i]
			}
			av.Seeds = append(av.Seeds, sw)
		}
		v.Anchors = append(v.Anchors, av)
	}
	counts := map[string]int{}
	for _, ls := range st.Labels {
		if len(ls) > 0 {
			v.Labeled++
		}
		for _, l := range ls {
			counts[l]++
		}
	}
	for l, n := range counts {
		v.Labels = append(v.Labels, labelCount{l, n})
	}
	sort.Slice(v.Labels, func(i, j int) bool {
		if v.Labels[i].Docs != v.Labels[j].Docs {
			return v.Labels[i].Docs > v.Labels[j].Docs
		}
		return v.Labels[i].Label < v.Labels[j].Label
	})
	writeJSON(w, http.StatusOK, v)
}

// nonNil is xs, or an empty list for nil: a list the page reads is sent
// as [] rather than left out.
func nonNil[T any](xs []T) []T {
	if xs == nil {
		return []T{}
	}
	return xs
}

func (s *Server) topics(w http.ResponseWriter, r *http.Request) {
	if !query(w, r, "n") {
		return
	}
	n, ok := nParam(w, r, 10, "top words per topic")
	if !ok {
		return
	}
	st := s.sess.Status()
	ts := nonNil(s.sess.Topics(n))
	writeJSON(w, http.StatusOK, map[string]any{"round": st.Round, "fitted": st.Fitted, "topics": ts})
}

func (s *Server) topicDocs(w http.ResponseWriter, r *http.Request) {
	if !query(w, r, "n") {
		return
	}
	n, ok := nParam(w, r, 20, "documents")
	if !ok {
		return
	}
	name := r.PathValue("name")
	docs, err := s.sess.TopicDocs(name, n)
	if err != nil {
		writeEngineError(w, err, http.StatusNotFound)
		return
	}
	writeDocs(w, map[string]any{"topic": name}, docs)
}

// writeDocs answers a list of documents, fields beside them.
func writeDocs(w http.ResponseWriter, fields map[string]any, docs []workbench.DocView) {
	fields["docs"] = nonNil(docs)
	writeJSON(w, http.StatusOK, fields)
}

func (s *Server) search(w http.ResponseWriter, r *http.Request) {
	if !query(w, r, "q", "n") {
		return
	}
	n, ok := nParam(w, r, 50, "documents")
	if !ok {
		return
	}
	q := r.URL.Query().Get("q")
	if strings.TrimSpace(q) == "" {
		writeError(w, http.StatusBadRequest, "the query parameter q (the word or phrase to search for) is empty")
		return
	}
	if len(q) > MaxQuery {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("the query parameter q is %d bytes long, at most %d", len(q), MaxQuery))
		return
	}
	docs, err := s.sess.Search(q, n)
	if err != nil {
		// A query that reads as no term of the vocabulary finds nothing:
		// an answer, with the reason, rather than a failed request.
		writeDocs(w, map[string]any{"q": q, "note": plain(err)}, nil)
		return
	}
	writeDocs(w, map[string]any{"q": q}, docs)
}

func (s *Server) document(w http.ResponseWriter, r *http.Request) {
	if !query(w, r) {
		return
	}
	d, err := s.sess.Document(r.PathValue("id"))
	if err != nil {
		writeEngineError(w, err, http.StatusNotFound)
		return
	}
	writeJSON(w, http.StatusOK, d)
}

func (s *Server) vocab(w http.ResponseWriter, r *http.Request) {
	if !query(w, r, "prefix", "n") {
		return
	}
	n, ok := nParam(w, r, 100, "terms")
	if !ok {
		return
	}
	prefix := r.URL.Query().Get("prefix")
	if len(prefix) > MaxQuery {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("the query parameter prefix is %d bytes long, at most %d", len(prefix), MaxQuery))
		return
	}
	terms := nonNil(s.sess.Vocabulary(prefix, n))
	writeJSON(w, http.StatusOK, map[string]any{"prefix": prefix, "terms": terms})
}

func (s *Server) rounds(w http.ResponseWriter, r *http.Request) {
	if !query(w, r) {
		return
	}
	rs := nonNil(s.sess.Rounds())
	writeJSON(w, http.StatusOK, map[string]any{"rounds": rs})
}

func (s *Server) diff(w http.ResponseWriter, r *http.Request) {
	if !query(w, r) {
		return
	}
	p := r.PathValue("n")
	n, err := strconv.Atoi(p)
	if err != nil || n < 0 {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("the round in /api/rounds/{n}/diff must be a whole number ≥ 1 (0: the current round), not %q", p))
		return
	}
	d, err := s.sess.Diff(n)
	if err != nil {
		writeEngineError(w, err, http.StatusNotFound)
		return
	}
	d.Topics = nonNil(d.Topics)
	writeJSON(w, http.StatusOK, d)
}

func (s *Server) suggest(w http.ResponseWriter, r *http.Request) {
	if !query(w, r) {
		return
	}
	sg := s.sess.Suggest()
	sg.Label, sg.Separate, sg.Junk = nonNil(sg.Label), nonNil(sg.Separate), nonNil(sg.Junk)
	writeJSON(w, http.StatusOK, sg)
}

// actionAnswer is the answer of a POST: the version the action made and
// where the session stands.
type actionAnswer struct {
	Version int              `json:"version"`
	Status  workbench.Status `json:"status"`
}

func (s *Server) edit(w http.ResponseWriter, r *http.Request) {
	body, ok := s.readBody(w, r)
	if !ok {
		return
	}
	base, e, err := decodeEdit(body)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	v, err := s.sess.Apply(base, e)
	if err != nil {
		writeEngineError(w, err, http.StatusUnprocessableEntity)
		return
	}
	writeJSON(w, http.StatusOK, actionAnswer{Version: v, Status: s.sess.Status()})
}

func (s *Server) refit(w http.ResponseWriter, r *http.Request) {
	s.action(w, r, func(base int) (int, error) { return s.sess.Refit(base) })
}

func (s *Server) undo(w http.ResponseWriter, r *http.Request) {
	s.action(w, r, func(base int) (int, error) {
		st, err := s.sess.Undo(base)
		return st.Version, err
	})
}

func (s *Server) redo(w http.ResponseWriter, r *http.Request) {
	s.action(w, r, func(base int) (int, error) {
		st, err := s.sess.Redo(base)
		return st.Version, err
	})
}

// action answers a POST whose body is {"base": version}.
func (s *Server) action(w http.ResponseWriter, r *http.Request, do func(base int) (int, error)) {
	body, ok := s.readBody(w, r)
	if !ok {
		return
	}
	base, err := decodeBase(body)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	v, err := do(base)
	if err != nil {
		writeEngineError(w, err, http.StatusUnprocessableEntity)
		return
	}
	writeJSON(w, http.StatusOK, actionAnswer{Version: v, Status: s.sess.Status()})
}

// exportTypes are the content types of what Export writes.
var exportTypes = map[string]string{
	workbench.ExportModel:   "application/octet-stream",
	workbench.ExportAnchors: "text/plain; charset=utf-8",
	workbench.ExportLabels:  "text/csv; charset=utf-8",
	workbench.ExportReport:  "text/html; charset=utf-8",
	workbench.ExportCommand: "text/plain; charset=utf-8",
}

func (s *Server) export(w http.ResponseWriter, r *http.Request) {
	if !query(w, r) {
		return
	}
	what := r.PathValue("what")
	name := workbench.ExportName(what)
	if name == "" {
		writeError(w, http.StatusNotFound, fmt.Sprintf("nothing to export called %q: the export gives %s", what, strings.Join(workbench.Exports(), ", ")))
		return
	}
	// The whole file first, so that an error is an answer of its own
	// rather than half a download.
	var buf bytes.Buffer
	if err := s.sess.Export(&buf, what); err != nil {
		writeEngineError(w, err, http.StatusInternalServerError)
		return
	}
	ct := exportTypes[what]
	if ct == "" {
		ct = "application/octet-stream"
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", name))
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Length", strconv.Itoa(buf.Len()))
	_, _ = w.Write(buf.Bytes())
}

// Serve serves s on ln until ctx is cancelled, then ends its event
// streams and waits and shuts down gracefully (server.Serve), letting
// the requests in flight finish for up to grace.
func Serve(ctx context.Context, ln net.Listener, s *Server, logger *slog.Logger, grace time.Duration) error {
	stop := context.AfterFunc(ctx, s.Close)
	defer stop()
	return server.Serve(ctx, ln, s, logger, grace)
}

var _ http.Handler = (*Server)(nil)
