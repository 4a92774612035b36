// Package jsonapi holds what the project's HTTP JSON APIs (packages server
// and workbench/web) share: the serving of a mux with a log line per
// request, a panic answered 500, and the mux's own 404 and 405 answered in
// JSON; answers that never hold null; and the pieces of request decoding
// whose errors name the field at fault in the API's words.
package jsonapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"
)

// Mux serves a ServeMux as both APIs do. Set its fields before serving.
type Mux struct {
	// Mux routes the requests.
	Mux *http.ServeMux
	// Logger receives a JSON line per request and one per panic.
	Logger *slog.Logger
	// Endpoints lists the API's endpoints, for a 404's message.
	Endpoints string
	// WriteError answers an error in the API's JSON.
	WriteError func(w http.ResponseWriter, status int, msg string)
	// Before, when set, runs before routing and reports whether it
	// answered the request itself.
	Before func(w http.ResponseWriter, r *http.Request) bool

	nextID atomic.Uint64
}

// ServeHTTP implements http.Handler.
func (m *Mux) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
	defer func() {
		if p := recover(); p != nil {
			m.Logger.Error("panic", "path", r.URL.Path, "panic", fmt.Sprint(p))
			if !rec.wrote {
				m.WriteError(rec, http.StatusInternalServerError, "internal error")
			}
		}
		m.Logger.Info("request", "id", m.nextID.Add(1), "method", r.Method, "path", r.URL.Path,
			"status", rec.status, "bytes", rec.bytes, "duration_ms", float64(time.Since(start).Microseconds())/1000,
			"remote", r.RemoteAddr)
	}()
	if m.Before != nil && m.Before(rec, r) {
		return
	}
	h, pattern := m.Mux.Handler(r)
	if pattern == "" {
		// No route: the mux answers 404 or 405 (with Allow) in plain text;
		// answer in JSON like every other error.
		probe := &headerProbe{header: http.Header{}}
		h.ServeHTTP(probe, r)
		switch probe.status {
		case http.StatusMethodNotAllowed:
			allow := probe.header.Get("Allow")
			rec.Header().Set("Allow", allow)
			m.WriteError(rec, probe.status, fmt.Sprintf("method %s is not allowed on %s (allowed: %s)", r.Method, r.URL.Path, allow))
			return
		case http.StatusNotFound:
			m.WriteError(rec, probe.status, fmt.Sprintf("no endpoint %s %s: the API has %s", r.Method, r.URL.Path, m.Endpoints))
			return
		}
		for k, v := range probe.header {
			rec.Header()[k] = v
		}
		rec.WriteHeader(probe.status)
		_, _ = rec.Write(probe.body.Bytes())
		return
	}
	// The mux, not h, serves the route: it sets the path's wildcards.
	m.Mux.ServeHTTP(rec, r)
}

// headerProbe records what the mux's own 404, 405 and redirect handlers
// write, so that the errors can be answered in JSON.
type headerProbe struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (p *headerProbe) Header() http.Header { return p.header }
func (p *headerProbe) WriteHeader(code int) {
	if p.status == 0 {
		p.status = code
	}
}
func (p *headerProbe) Write(b []byte) (int, error) {
	if p.status == 0 {
		p.status = http.StatusOK
	}
	return p.body.Write(b)
}

// statusRecorder records an answer's status and size for the log.
type statusRecorder struct {
	http.ResponseWriter
	status int
	bytes  int
	wrote  bool
}

// Unwrap gives http.ResponseController the connection's writer, for
// deadlines and flushing.
func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

func (r *statusRecorder) WriteHeader(code int) {
	r.status, r.wrote = code, true
	r.ResponseWriter.WriteHeader(code)
}

func (r *statusRecorder) Write(b []byte) (int, error) {
	r.wrote = true
	n, err := r.ResponseWriter.Write(b)
	r.bytes += n
	return n, err
}

// NoNulls returns v as its decoded JSON value (numbers as json.Number)
// with every null member of an object left out and every null element of
// a list dropped: the APIs never send null, whatever a nil slice, map or
// pointer of v's type would encode as, so that a client reads a missing
// list as an empty one.
func NoNulls(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		return nil, err
	}
	return clean(x), nil
}

// clean drops the nulls of a decoded JSON value.
func clean(x any) any {
	switch x := x.(type) {
	case map[string]any:
		for k, e := range x {
			if e == nil {
				delete(x, k)
			} else {
				x[k] = clean(e)
			}
		}
	case []any:
		kept := x[:0]
		for _, e := range x {
			if e != nil {
				kept = append(kept, clean(e))
			}
		}
		return kept
	}
	return x
}

// BadRequest is an error in a request's body: its message names the field
// or the place at fault, in the words of the API (no Go type).
type BadRequest struct{ Msg string }

func (e *BadRequest) Error() string { return e.Msg }

// Badf returns a *BadRequest with the formatted message.
func Badf(format string, args ...any) error {
	return &BadRequest{fmt.Sprintf(format, args...)}
}

// IsNull reports whether v is the JSON null.
func IsNull(v json.RawMessage) bool { return string(bytes.TrimSpace(v)) == "null" }

// Kind names the kind of a JSON value, with its article.
func Kind(v json.RawMessage) string {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return "nothing"
	}
	switch v[0] {
	case '{':
		return "an object"
	case '[':
		return "a list"
	case '"':
		return "a string"
	case 't', 'f':
		return "true or false"
	case 'n':
		return "null"
	}
	return "a number"
}

// Short quotes a JSON value for a message, cut to 40 characters.
func Short(v json.RawMessage) string {
	r := []rune(string(bytes.TrimSpace(v)))
	if len(r) > 40 {
		return string(r[:37]) + "..."
	}
	return string(r)
}

// Position says where byte offset off of body is: its line and column.
func Position(body []byte, off int64) string {
	off = min(max(off, 0), int64(len(body)))
	before := body[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := len(before) - bytes.LastIndexByte(before, '\n')
	return fmt.Sprintf("line %d, column %d", line, col)
}

// String decodes the field name's value v, which must be a JSON string.
func String(v json.RawMessage, name string) (string, error) {
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return "", Badf("%s must be a string, not %s", name, Kind(v))
	}
	return s, nil
}
