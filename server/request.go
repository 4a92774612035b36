package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// transformRequest is the body of POST /v1/transform, as decodeTransform
// checked it.
type transformRequest struct {
	// text is set when the body has "text" (a string, possibly empty).
	text *string
	docs []requestDoc
	top  int
}

type requestDoc struct {
	ID   string
	Text string
}

// requestShape is the request's shape in words, for the errors.
const requestShape = `send {"text": "..."} or {"documents": [{"id": "...", "text": "..."}]}, with an optional "top": N`

// badRequest is an error in a request's body: its message names the field
// or the place at fault, in the words of the API (no Go type).
type badRequest struct{ msg string }

func (e *badRequest) Error() string { return e.msg }

func badf(format string, args ...any) error {
	return &badRequest{fmt.Sprintf(format, args...)}
}

// decodeTransform checks and decodes a /v1/transform body. Every error it
// returns is a *badRequest whose message says, in the API's words, which
// field holds what and what it must hold.
func decodeTransform(body []byte) (*transformRequest, error) {
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, badf("empty body: %s", requestShape)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return nil, syntaxError(body, err)
	}
	end := dec.InputOffset()
	if _, err := dec.Token(); err != io.EOF {
		return nil, badf("invalid JSON: data after the request object (at %s): send one JSON object", position(body, end+leadingSpace(body[end:])))
	}
	fields, err := object(raw, "the body")
	if err != nil {
		return nil, err
	}
	if err := onlyFields(fields, "the request", "text", "documents", "top"); err != nil {
		return nil, err
	}
	req := &transformRequest{}
	if v, ok := fields["text"]; ok && !isNull(v) {
		s, err := stringField(v, `"text"`)
		if err != nil {
			return nil, err
		}
		req.text = &s
	}
	if v, ok := fields["documents"]; ok && !isNull(v) {
		var items []json.RawMessage
		if err := json.Unmarshal(v, &items); err != nil {
			return nil, badf(`"documents" must be a list of {"id": "...", "text": "..."} objects, not %s`, jsonKind(v))
		}
		for i, item := range items {
			at := fmt.Sprintf("documents[%d]", i)
			f, err := object(item, at)
			if err != nil {
				return nil, err
			}
			if err := onlyFields(f, at, "id", "text"); err != nil {
				return nil, err
			}
			var d requestDoc
			t, ok := f["text"]
			if !ok || isNull(t) {
				return nil, badf(`%s has no "text": each document is {"id": "...", "text": "..."} (the id is optional)`, at)
			}
			if d.Text, err = stringField(t, at+".text"); err != nil {
				return nil, err
			}
			if id, ok := f["id"]; ok && !isNull(id) {
				if d.ID, err = idField(id, at+".id"); err != nil {
					return nil, err
				}
			}
			req.docs = append(req.docs, d)
		}
	}
	if v, ok := fields["top"]; ok && !isNull(v) {
		n, err := strconv.Atoi(string(v))
		if err != nil || n < 0 {
			return nil, badf(`"top" must be a whole number of topics, at least 1 (0 or none: 5), not %s`, shortJSON(v))
		}
		req.top = n
	}
	return req, nil
}

// syntaxError says where a body's JSON is broken.
func syntaxError(body []byte, err error) error {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		// Offset counts the offending byte: the position is the one before.
		return badf("invalid JSON at %s: %s", position(body, se.Offset-1), se.Error())
	case errors.Is(err, io.ErrUnexpectedEOF):
		return badf("invalid JSON: the body ends before its JSON value does (cut short?): %s", requestShape)
	}
	return badf("invalid JSON: %v", err)
}

// position writes a byte offset of body as its line and column (1-based).
func position(body []byte, off int64) string {
	off = min(max(off, 0), int64(len(body)))
	before := body[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := len(before) - bytes.LastIndexByte(before, '\n')
	return fmt.Sprintf("line %d, column %d", line, col)
}

func leadingSpace(body []byte) int64 {
	return int64(len(body) - len(bytes.TrimLeft(body, " \t\r\n")))
}

// object decodes v as a JSON object.
func object(v json.RawMessage, what string) (map[string]json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(v, &m); err != nil || m == nil {
		return nil, badf("%s must be a JSON object, not %s: %s", what, jsonKind(v), requestShape)
	}
	return m, nil
}

// onlyFields refuses a field of m that is not one of names.
func onlyFields(m map[string]json.RawMessage, what string, names ...string) error {
	var unknown []string
	for k := range m {
		known := false
		for _, n := range names {
			known = known || k == n
		}
		if !known {
			unknown = append(unknown, strconv.Quote(k))
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	sort.Strings(unknown)
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = strconv.Quote(n)
	}
	field := "field"
	if len(unknown) > 1 {
		field = "fields"
	}
	return badf("unknown %s %s in %s: it has %s", field, strings.Join(unknown, ", "), what, strings.Join(quoted, ", "))
}

func stringField(v json.RawMessage, name string) (string, error) {
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return "", badf("%s must be a string, not %s", name, jsonKind(v))
	}
	return s, nil
}

// idField reads a document id: a string, or a number taken as written.
func idField(v json.RawMessage, name string) (string, error) {
	switch jsonKind(v) {
	case "a string":
		return stringField(v, name)
	case "a number":
		return string(v), nil
	}
	return "", badf("%s must be a string (or a number), not %s", name, jsonKind(v))
}

func isNull(v json.RawMessage) bool { return string(bytes.TrimSpace(v)) == "null" }

// jsonKind names the kind of a JSON value, with its article.
func jsonKind(v json.RawMessage) string {
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

// shortJSON quotes a JSON value for a message, cut to 40 bytes.
func shortJSON(v json.RawMessage) string {
	r := []rune(string(bytes.TrimSpace(v)))
	if len(r) > 40 {
		return string(r[:37]) + "..."
	}
	return string(r)
}
