package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/semitopic/semitopic/internal/jsonapi"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/semitopic/semitopic/model"
	"github.com/semitopic/semitopic/workbench"
)

// query refuses a query parameter of r that is not one of names, and
// one given twice; it answers the error itself and reports whether r may
// go on.
func query(w http.ResponseWriter, r *http.Request, names ...string) bool {
	var unknown []string
	for k, v := range r.URL.Query() {
		if !slices.Contains(names, k) {
			unknown = append(unknown, strconv.Quote(k))
			continue
		}
		if len(v) > 1 {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("the query parameter %s is given %d times: give it once", k, len(v)))
			return false
		}
	}
	if len(unknown) == 0 {
		return true
	}
	sort.Strings(unknown)
	takes := "takes no query parameter"
	if len(names) > 0 {
		takes = "takes " + strings.Join(names, ", ")
	}
	plural := ""
	if len(unknown) > 1 {
		plural = "s"
	}
	writeError(w, http.StatusBadRequest, fmt.Sprintf("unknown query parameter%s %s: %s %s", plural, strings.Join(unknown, ", "), r.URL.Path, takes))
	return false
}

// nParam reads the query parameter n, from 1 to MaxN (def when absent);
// what says what n counts. It answers the error itself.
func nParam(w http.ResponseWriter, r *http.Request, def int, what string) (int, bool) {
	q := r.URL.Query().Get("n")
	if q == "" {
		return def, true
	}
	v, err := strconv.Atoi(q)
	if err != nil || v < 1 || v > MaxN {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("the query parameter n (%s) must be a whole number from 1 to %d, not %q", what, MaxN, q))
		return 0, false
	}
	return v, true
}

// readBody reads a request body up to Options.MaxBodyBytes, answering
// the error itself.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.opts.MaxBodyBytes))
	if err == nil {
		return body, true
	}
	var tooBig *http.MaxBytesError
	var ne net.Error
	switch {
	case errors.As(err, &tooBig):
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body over %d bytes: name fewer documents per edit", s.opts.MaxBodyBytes))
	case errors.Is(err, os.ErrDeadlineExceeded) || errors.As(err, &ne) && ne.Timeout():
		w.Header().Set("Connection", "close")
		writeError(w, http.StatusRequestTimeout, "the request body was not received in time")
	default:
		writeError(w, http.StatusBadRequest, "could not read the request body: "+err.Error())
	}
	return nil, false
}

// The shapes of the bodies, for the errors.
const (
	baseShape = `send {"base": VERSION}, VERSION the version from /api/status`
	editShape = `send {"base": VERSION, "edit": {"op": "...", ...}}, VERSION the version from /api/status`
)

// opFields are the fields of "edit" each op reads: required first, then
// after "|" the optional ones.
var opFields = map[string]string{
	workbench.OpAddSeed:        "topic word | strength",
	workbench.OpRemoveSeed:     "topic word",
	workbench.OpAddExclude:     "topic word",
	workbench.OpRemoveExclude:  "topic word",
	workbench.OpCreateTopic:    "name words",
	workbench.OpRename:         "topic name",
	workbench.OpMerge:          "topic other",
	workbench.OpSplit:          "topic name groups",
	workbench.OpDeleteTopic:    "topic",
	workbench.OpLabel:          "docs label",
	workbench.OpUnlabel:        "docs | label",
	workbench.OpAddStopword:    "word",
	workbench.OpRemoveStopword: "word",
	workbench.OpRemoveDoc:      "docs",
	workbench.OpRestoreDoc:     "docs",
	workbench.OpSetK:           "k",
	workbench.OpSetKind:        "kind",
}

// fieldsOf splits an op's fields into the required and the optional.
func fieldsOf(op string) (required, optional []string) {
	req, opt, _ := strings.Cut(opFields[op], "|")
	return strings.Fields(req), strings.Fields(opt)
}

// decodeTop decodes a body as one JSON object with only the fields
// names, base among them and required.
func decodeTop(body []byte, shape string, names ...string) (map[string]json.RawMessage, int, error) {
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, 0, jsonapi.Badf("empty body: %s", shape)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return nil, 0, syntaxError(body, err, shape)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, 0, jsonapi.Badf("invalid JSON: data after the request object: %s", shape)
	}
	fields, err := object(raw, "the body", shape)
	if err != nil {
		return nil, 0, err
	}
	if err := onlyFields(fields, "the body", names...); err != nil {
		return nil, 0, err
	}
	v, ok := fields["base"]
	if !ok || jsonapi.IsNull(v) {
		return nil, 0, jsonapi.Badf(`the body has no "base": %s (an action based on an older version is refused, so that two tabs never lose an edit)`, shape)
	}
	base, err := intField(v, `"base"`, 0)
	if err != nil {
		return nil, 0, err
	}
	return fields, base, nil
}

// decodeBase decodes the body {"base": version} of refit, undo and redo.
func decodeBase(body []byte) (int, error) {
	_, base, err := decodeTop(body, baseShape, "base")
	return base, err
}

// decodeEdit decodes the body {"base": version, "edit": {...}} of
// /api/edit. Every error it returns is a *jsonapi.BadRequest naming the field.
func decodeEdit(body []byte) (int, workbench.Edit, error) {
	var e workbench.Edit
	fields, base, err := decodeTop(body, editShape, "base", "edit")
	if err != nil {
		return 0, e, err
	}
	raw, ok := fields["edit"]
	if !ok || jsonapi.IsNull(raw) {
		return 0, e, jsonapi.Badf(`the body has no "edit": %s`, editShape)
	}
	ef, err := object(raw, `"edit"`, editShape)
	if err != nil {
		return 0, e, err
	}
	opRaw, ok := ef["op"]
	if !ok || jsonapi.IsNull(opRaw) {
		return 0, e, jsonapi.Badf(`"edit" has no "op": the edits are %s`, strings.Join(workbench.Ops(), ", "))
	}
	if e.Op, err = jsonapi.String(opRaw, "edit.op"); err != nil {
		return 0, e, err
	}
	if _, known := opFields[e.Op]; !known {
		return 0, e, jsonapi.Badf(`edit.op: unknown edit %q: the edits are %s`, e.Op, strings.Join(workbench.Ops(), ", "))
	}
	required, optional := fieldsOf(e.Op)
	allowed := append(append([]string{"op"}, required...), optional...)
	for k, v := range ef {
		if !slices.Contains(allowed, k) && !jsonapi.IsNull(v) {
			return 0, e, jsonapi.Badf("edit.%s does not apply to %s, which reads %s", k, e.Op, quoteAll(append(required, optional...)))
		}
	}
	for _, k := range required {
		if v, ok := ef[k]; !ok || jsonapi.IsNull(v) {
			return 0, e, jsonapi.Badf("%s needs edit.%s (it reads %s)", e.Op, k, quoteAll(append(required, optional...)))
		}
	}
	for _, k := range allowed[1:] {
		v, ok := ef[k]
		if !ok || jsonapi.IsNull(v) {
			continue
		}
		name := "edit." + k
		switch k {
		case "topic":
			e.Topic, err = nonEmpty(v, name)
		case "other":
			e.Other, err = nonEmpty(v, name)
		case "name":
			e.Name, err = nonEmpty(v, name)
		case "word":
			e.Word, err = nonEmpty(v, name)
		case "label":
			e.Label, err = nonEmpty(v, name)
		case "kind":
			e.Kind, err = nonEmpty(v, name)
		case "strength":
			e.Strength, err = strengthField(v, name)
		case "k":
			e.K, err = intField(v, name, 1)
		case "words":
			e.Words, err = stringList(v, name, 1, MaxN)
		case "docs":
			e.Docs, err = stringList(v, name, 1, MaxEditDocs)
		case "groups":
			e.Groups, err = groupsField(v, name)
		}
		if err != nil {
			return 0, e, err
		}
	}
	return base, e, nil
}

func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}

// syntaxError says where a body's JSON is broken.
func syntaxError(body []byte, err error, shape string) error {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		// Offset counts the offending byte: the position is the one before.
		return jsonapi.Badf("invalid JSON at %s: %s", jsonapi.Position(body, se.Offset-1), se.Error())
	case errors.Is(err, io.ErrUnexpectedEOF):
		return jsonapi.Badf("invalid JSON: the body ends before its JSON value does (cut short?): %s", shape)
	}
	return jsonapi.Badf("invalid JSON: %v", err)
}

func object(v json.RawMessage, what, shape string) (map[string]json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(v, &m); err != nil || m == nil {
		return nil, jsonapi.Badf("%s must be a JSON object, not %s: %s", what, jsonapi.Kind(v), shape)
	}
	return m, nil
}

func onlyFields(m map[string]json.RawMessage, what string, names ...string) error {
	var unknown []string
	for k := range m {
		if !slices.Contains(names, k) {
			unknown = append(unknown, strconv.Quote(k))
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	sort.Strings(unknown)
	field := "field"
	if len(unknown) > 1 {
		field = "fields"
	}
	return jsonapi.Badf("unknown %s %s in %s: it has %s", field, strings.Join(unknown, ", "), what, quoteAll(names))
}

func nonEmpty(v json.RawMessage, name string) (string, error) {
	s, err := jsonapi.String(v, name)
	if err == nil && strings.TrimSpace(s) == "" {
		err = jsonapi.Badf("%s is empty", name)
	}
	return s, err
}

// intField reads a whole number ≥ lo.
func intField(v json.RawMessage, name string, lo int) (int, error) {
	if jsonapi.Kind(v) != "a number" {
		return 0, jsonapi.Badf("%s must be a whole number ≥ %d, not %s", name, lo, jsonapi.Kind(v))
	}
	n, err := strconv.Atoi(string(bytes.TrimSpace(v)))
	if err != nil || n < lo {
		return 0, jsonapi.Badf("%s must be a whole number ≥ %d, not %s", name, lo, jsonapi.Short(v))
	}
	return n, nil
}

// strengthField reads a seed word's strength: 0 (the default) or from
// model.MinStrength to model.MaxStrength.
func strengthField(v json.RawMessage, name string) (float64, error) {
	var f float64
	if jsonapi.Kind(v) != "a number" || json.Unmarshal(v, &f) != nil || math.IsNaN(f) ||
		f != 0 && (f < model.MinStrength || f > model.MaxStrength) {
		return 0, jsonapi.Badf("%s must be a number from %g to %g (0 or none: the kind's default), not %s", name, model.MinStrength, model.MaxStrength, jsonapi.Short(v))
	}
	return f, nil
}

// stringList reads a list of lo to hi non-empty strings.
func stringList(v json.RawMessage, name string, lo, hi int) ([]string, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(v, &items); err != nil {
		return nil, jsonapi.Badf("%s must be a list of strings, not %s", name, jsonapi.Kind(v))
	}
	if len(items) < lo {
		return nil, jsonapi.Badf("%s is empty: give at least %d", name, lo)
	}
	if len(items) > hi {
		return nil, jsonapi.Badf("%s has %d items, at most %d per edit", name, len(items), hi)
	}
	out := make([]string, len(items))
	for i, it := range items {
		s, err := nonEmpty(it, fmt.Sprintf("%s[%d]", name, i))
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}

func groupsField(v json.RawMessage, name string) ([2][]string, error) {
	var g [2][]string
	var items []json.RawMessage
	if err := json.Unmarshal(v, &items); err != nil || len(items) != 2 {
		what := jsonapi.Kind(v)
		if err == nil {
			what = fmt.Sprintf("a list of %d", len(items))
		}
		return g, jsonapi.Badf("%s must be a list of two lists of seed words, one per new topic, not %s", name, what)
	}
	for i := range items {
		ws, err := stringList(items[i], fmt.Sprintf("%s[%d]", name, i), 1, MaxN)
		if err != nil {
			return g, err
		}
		g[i] = ws
	}
	return g, nil
}
