package capi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
)

// Code classifies an error for the caller, which raises the matching
// exception (the Python package: ValueError, TypeError,
// FileNotFoundError, RuntimeError, KeyboardInterrupt).
type Code int

// The codes of the C ABI. Pending is not an error: the job runs on.
const (
	OK       Code = 0
	Value    Code = 1
	Type     Code = 2
	NotFound Code = 3
	Runtime  Code = 4
	Canceled Code = 5
	Pending  Code = 6
)

// Error is an error with its Code.
type Error struct {
	Code Code
	Err  error
}

func (e *Error) Error() string { return e.Err.Error() }

func (e *Error) Unwrap() error { return e.Err }

// typeErr returns a type error naming what is wrong.
func typeErr(format string, args ...any) error {
	return &Error{Code: Type, Err: fmt.Errorf(format, args...)}
}

// runtimeErr returns an error in the use of the ABI itself (an unknown
// handle or operation), not in what the caller asked of a model.
func runtimeErr(format string, args ...any) error {
	return &Error{Code: Runtime, Err: fmt.Errorf(format, args...)}
}

// CodeOf classifies err: a missing file is NotFound, a cancelled context
// Canceled, a JSON value of the wrong type Type, an *Error its own code,
// and every other error Value — bad input, which the model packages
// describe naming the option, topic, word or document.
func CodeOf(err error) Code {
	var e *Error
	var te *json.UnmarshalTypeError
	switch {
	case err == nil:
		return OK
	case errors.As(err, &e):
		return e.Code
	case errors.Is(err, context.Canceled):
		return Canceled
	case errors.Is(err, fs.ErrNotExist):
		return NotFound
	case errors.As(err, &te):
		return Type
	}
	return Value
}
