package enum

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Value is the underlying type of an enumeration: its values are 0, 1, …,
// len(names)−1.
type Value interface{ ~uint8 | ~int }

// Name returns the name of v among names, or "typeName(v)" for a value
// without one: the String method of an enumeration.
func Name[T Value](v T, names []string, typeName string) string {
	if int(v) >= 0 && int(v) < len(names) {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", typeName, int(v))
}

// Parse returns the value named s among names; the error names what (such
// as "case mode") and the values allowed.
func Parse[T Value](s string, names []string, what string) (T, error) {
	for i, n := range names {
		if s == n {
			return T(i), nil
		}
	}
	return 0, fmt.Errorf("unknown %s %q (want %s)", what, s, list(names))
}

// MarshalText returns the name of v among names; a value without a name is
// an error, so that a broken value is never written.
func MarshalText[T Value](v T, names []string, what string) ([]byte, error) {
	if int(v) < 0 || int(v) >= len(names) {
		return nil, fmt.Errorf("%s %d has no name (want one of %s)", what, int(v), list(names))
	}
	return []byte(names[v]), nil
}

// UnmarshalJSON sets *dst from a JSON string holding one of names, or from
// a JSON integer in [0, len(names)) as older files hold. The error names
// what (such as "case mode") and the values allowed.
func UnmarshalJSON[T Value](b []byte, dst *T, names []string, what string) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		v, err := Parse[T](s, names, what)
		if err != nil {
			return err
		}
		*dst = v
		return nil
	}
	i, err := strconv.Atoi(string(b))
	if err != nil || i < 0 || i >= len(names) {
		return fmt.Errorf("unknown %s %s (want %s)", what, b, list(names))
	}
	*dst = T(i)
	return nil
}

// list joins names as "a, b or c".
func list(names []string) string {
	switch len(names) {
	case 0:
		return "nothing"
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
