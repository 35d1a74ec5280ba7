// Package apperr defines the handful of error codes the domain packages
// return and the HTTP layer maps to status codes. Internal details stay in
// the wrapped error (logged); what the member sees is the translated MsgKey.
package apperr

import (
	"encoding/json"
	"errors"
	"fmt"

	"members/internal/validate"
)

// Code classifies an error for the transport layer.
type Code string

// The error codes. httpapi maps each to one HTTP status.
const (
	Invalid         Code = "invalid"         // 400, with field errors
	Unauthenticated Code = "unauthenticated" // 401 (bad credentials)
	Forbidden       Code = "forbidden"       // 403 (no session, bad CSRF)
	NotFound        Code = "not_found"       // 404 (missing or not the caller's)
	Conflict        Code = "conflict"        // 409
	TooMany         Code = "too_many"        // 429
	Unavailable     Code = "unavailable"     // 503
	Internal        Code = "internal"        // 500
)

// Error is a domain error with a code, a message key for the member and,
// for Invalid, the field errors. ErrorKey carries the spec's catalogue keys
// (voucher_reissue_error, mobile_mail_error…) when one applies.
type Error struct {
	Code     Code
	MsgKey   string
	Fields   validate.Errors
	ErrorKey string
	// Expected marks a catalogued answer to what the member did (a wrong
	// exchange password, a used code, a voucher reissued already) that the
	// API still answers with 500 and its ErrorKey: no fault of the server,
	// so it is logged at INFO, and ERROR stays for real faults.
	Expected bool
	Err      error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.MsgKey, e.Err)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.MsgKey)
}

func (e *Error) Unwrap() error { return e.Err }

// New returns an error with a code and a message key.
func New(code Code, msgKey string) *Error { return &Error{Code: code, MsgKey: msgKey} }

// Fields returns an Invalid error carrying field errors.
func FromFields(f validate.Errors) *Error {
	return &Error{Code: Invalid, MsgKey: "validation.something", Fields: f}
}

// ErrNotFound is the common not-found error.
var ErrNotFound = New(NotFound, "error.not_found")

// CodeOf returns the code of err, Internal when it is not an *Error.
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return Internal
}

// As returns the *Error inside err, or nil.
func As(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return nil
}

// FromDecode turns a JSON decoding error of a request body into a 400: a
// value of the wrong type names its field ("The field amount has the
// wrong type."), as the HTTP layer's strict decoder does; anything else is
// the generic bad request.
func FromDecode(err error) *Error {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) && typeErr.Field != "" {
		return FromFields(validate.Errors{typeErr.Field: {Key: "error.wrong_type", Args: []any{"field", typeErr.Field}}})
	}
	return New(Invalid, "error.bad_request")
}
