package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/semitopic/semitopic/internal/jsonapi"
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

// decodeTransform checks and decodes a /v1/transform body. Every error it
// returns is a *jsonapi.BadRequest whose message says, in the API's words, which
// field holds what and what it must hold.
func decodeTransform(body []byte) (*transformRequest, error) {
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, jsonapi.Badf("empty body: %s", requestShape)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return nil, syntaxError(body, err)
	}
	end := dec.InputOffset()
	if _, err := dec.Token(); err != io.EOF {
		return nil, jsonapi.Badf("invalid JSON: data after the request object (at %s): send one JSON object", jsonapi.Position(body, end+leadingSpace(body[end:])))
	}
	fields, err := object(raw, "the body")
	if err != nil {
		return nil, err
	}
	if err := onlyFields(fields, "the request", "text", "documents", "top"); err != nil {
		return nil, err
	}
	req := &transformRequest{}
	if v, ok := fields["text"]; ok && !jsonapi.IsNull(v) {
		s, err := jsonapi.String(v, `"text"`)
		if err != nil {
			return nil, err
		}
		req.text = &s
	}
	if v, ok := fields["documents"]; ok && !jsonapi.IsNull(v) {
		var items []json.RawMessage
		if err := json.Unmarshal(v, &items); err != nil {
			return nil, jsonapi.Badf(`"documents" must be a list of {"id": "...", "text": "..."} objects, not %s`, jsonapi.Kind(v))
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
			if !ok || jsonapi.IsNull(t) {
				return nil, jsonapi.Badf(`%s has no "text": each document is {"id": "...", "text": "..."} (the id is optional)`, at)
			}
			if d.Text, err = jsonapi.String(t, at+".text"); err != nil {
				return nil, err
			}
			if id, ok := f["id"]; ok && !jsonapi.IsNull(id) {
				if d.ID, err = idField(id, at+".id"); err != nil {
					return nil, err
				}
			}
			req.docs = append(req.docs, d)
		}
	}
	if v, ok := fields["top"]; ok && !jsonapi.IsNull(v) {
		n, err := strconv.Atoi(string(v))
		if err != nil || n < 0 {
			return nil, jsonapi.Badf(`"top" must be a whole number of topics, at least 1 (0 or none: 5), not %s`, jsonapi.Short(v))
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
		return jsonapi.Badf("invalid JSON at %s: %s", jsonapi.Position(body, se.Offset-1), se.Error())
	case errors.Is(err, io.ErrUnexpectedEOF):
		return jsonapi.Badf("invalid JSON: the body ends before its JSON value does (cut short?): %s", requestShape)
	}
	return jsonapi.Badf("invalid JSON: %v", err)
}

func leadingSpace(body []byte) int64 {
	return int64(len(body) - len(bytes.TrimLeft(body, " \t\r\n")))
}

// object decodes v as a JSON object.
func object(v json.RawMessage, what string) (map[string]json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(v, &m); err != nil || m == nil {
		return nil, jsonapi.Badf("%s must be a JSON object, not %s: %s", what, jsonapi.Kind(v), requestShape)
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
	return jsonapi.Badf("unknown %s %s in %s: it has %s", field, strings.Join(unknown, ", "), what, strings.Join(quoted, ", "))
}

// idField reads a document id: a string, or a number taken as written.
func idField(v json.RawMessage, name string) (string, error) {
	switch jsonapi.Kind(v) {
	case "a string":
		return jsonapi.String(v, name)
	case "a number":
		return string(v), nil
	}
	return "", jsonapi.Badf("%s must be a string (or a number), not %s", name, jsonapi.Kind(v))
}
