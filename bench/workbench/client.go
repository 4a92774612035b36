package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/semitopic/semitopic/workbench"
	"github.com/semitopic/semitopic/workbench/web"
)

// served is a workbench session served on loopback in this process, and
// a client of its API that keeps the version it last saw.
type served struct {
	sess *workbench.Session
	srv  *web.Server
	base string
	hc   *http.Client
	stop context.CancelFunc
	done chan error
	// version is the state's version after the client's last action.
	version int
}

// serve opens a session with cfg and serves it on 127.0.0.1 on a free
// port, as `semitopic workbench` does.
func serve(ctx context.Context, cfg workbench.Config) (*served, error) {
	sess, err := workbench.Open(ctx, cfg)
	if err != nil {
		return nil, err
	}
	srv, err := web.New(sess, web.Options{})
	if err != nil {
		sess.Close()
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		sess.Close()
		return nil, err
	}
	sctx, stop := context.WithCancel(context.Background())
	s := &served{sess: sess, srv: srv, base: "http://" + ln.Addr().String(), stop: stop, done: make(chan error, 1),
		hc: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 8}}}
	go func() { s.done <- web.Serve(sctx, ln, srv, slog.New(slog.DiscardHandler), 5*time.Second) }()
	st, err := s.status(ctx)
	if err != nil {
		s.close()
		return nil, err
	}
	s.version = st.Version
	return s, nil
}

// close stops the server and the session.
func (s *served) close() {
	s.stop()
	<-s.done
	s.sess.Close()
}

// apiError is an answer of the API other than 200.
type apiError struct {
	Method, Path string
	Status       int
	Message      string
}

func (e *apiError) Error() string {
	return fmt.Sprintf("%s %s: %d: %s", e.Method, e.Path, e.Status, e.Message)
}

// do sends a request and decodes the JSON answer into out (nil: discard).
func (s *served) do(ctx context.Context, method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, s.base+path, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := s.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("%s %s: reading the answer: %w", method, path, err)
	}
	if resp.StatusCode != http.StatusOK {
		var e struct{ Error string }
		_ = json.Unmarshal(b, &e)
		return &apiError{Method: method, Path: path, Status: resp.StatusCode, Message: e.Error}
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(b, out); err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	return nil
}

func (s *served) get(ctx context.Context, path string, out any) error {
	return s.do(ctx, http.MethodGet, path, nil, out)
}

func (s *served) status(ctx context.Context) (workbench.Status, error) {
	var st workbench.Status
	err := s.get(ctx, "/api/status", &st)
	return st, err
}

// actionAnswer is the answer of a POST.
type actionAnswer struct {
	Version int              `json:"version"`
	Status  workbench.Status `json:"status"`
}

// edit applies e to the version last seen and returns the new version.
func (s *served) edit(ctx context.Context, e workbench.Edit) (int, error) {
	var a actionAnswer
	if err := s.do(ctx, http.MethodPost, "/api/edit", map[string]any{"base": s.version, "edit": e}, &a); err != nil {
		return 0, err
	}
	s.version = a.Version
	return a.Version, nil
}

// undo moves back a round.
func (s *served) undo(ctx context.Context) error {
	var a actionAnswer
	if err := s.do(ctx, http.MethodPost, "/api/undo", map[string]any{"base": s.version}, &a); err != nil {
		return err
	}
	s.version = a.Version
	return nil
}

// wait waits until version v is fitted and returns the round that shows
// it.
func (s *served) wait(ctx context.Context, v int) (workbench.RoundSummary, error) {
	for {
		var a struct {
			Round  workbench.RoundSummary `json:"round"`
			Status workbench.Status       `json:"status"`
		}
		err := s.get(ctx, "/api/wait?version="+strconv.Itoa(v)+"&timeout=50s", &a)
		var ae *apiError
		if errors.As(err, &ae) && ae.Status == http.StatusServiceUnavailable {
			continue // not yet: wait again
		}
		if err != nil {
			return workbench.RoundSummary{}, err
		}
		s.version = max(s.version, a.Status.Version)
		return a.Round, nil
	}
}

// topicsAnswer is the answer of /api/topics.
type topicsAnswer struct {
	Round  int                   `json:"round"`
	Fitted int                   `json:"fitted"`
	Topics []workbench.TopicView `json:"topics"`
}

func (s *served) topics(ctx context.Context, n int) (topicsAnswer, error) {
	var a topicsAnswer
	err := s.get(ctx, "/api/topics?n="+strconv.Itoa(n), &a)
	return a, err
}

func (s *served) topicDocs(ctx context.Context, topic string, n int) ([]workbench.DocView, error) {
	var a struct {
		Docs []workbench.DocView `json:"docs"`
	}
	err := s.get(ctx, "/api/topics/"+url.PathEscape(topic)+"/docs?n="+strconv.Itoa(n), &a)
	return a.Docs, err
}

func (s *served) document(ctx context.Context, id string) (workbench.DocView, error) {
	var d workbench.DocView
	err := s.get(ctx, "/api/docs/"+url.PathEscape(id), &d)
	return d, err
}

func (s *served) diff(ctx context.Context, round int) (workbench.Diff, error) {
	var d workbench.Diff
	err := s.get(ctx, "/api/rounds/"+strconv.Itoa(round)+"/diff", &d)
	return d, err
}

func (s *served) suggest(ctx context.Context) (workbench.Suggestions, error) {
	var sg workbench.Suggestions
	err := s.get(ctx, "/api/suggest", &sg)
	return sg, err
}

func (s *served) vocab(ctx context.Context, n int) ([]workbench.TermView, error) {
	var a struct {
		Terms []workbench.TermView `json:"terms"`
	}
	err := s.get(ctx, "/api/vocab?n="+strconv.Itoa(n), &a)
	return a.Terms, err
}

// stateAnswer is the part of /api/state the benchmark reads.
type stateAnswer struct {
	Kind    string `json:"kind"`
	K       int    `json:"k"`
	Anchors []struct {
		Topic string `json:"topic"`
		Seeds []struct {
			Word string `json:"word"`
		} `json:"seeds"`
		Exclude []string `json:"exclude"`
	} `json:"anchors"`
	Labeled   int      `json:"labeled"`
	Stopwords []string `json:"stopwords"`
}

func (s *served) state(ctx context.Context) (stateAnswer, error) {
	var a stateAnswer
	err := s.get(ctx, "/api/state", &a)
	return a, err
}

// export downloads what (workbench.Exports).
func (s *served) export(ctx context.Context, what string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.base+"/api/export/"+what, nil)
	if err != nil {
		return nil, err
	}
	resp, err := s.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, &apiError{Method: http.MethodGet, Path: "/api/export/" + what, Status: resp.StatusCode, Message: string(b)}
	}
	return b, nil
}
