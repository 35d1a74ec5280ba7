package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strconv"
	"strings"

	"members/internal/apperr"
	"members/internal/validate"
)

// maxBody caps JSON request bodies.
const maxBody = 1 << 20

// WriteJSON encodes v with status.
func (s *Server) WriteJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		// a value the API's own types cannot encode: a bug, answered as one
		panic(fmt.Errorf("encode answer: %w", err))
	}
	writeJSONBody(w, status, append(body, '\n'))
}

// writeJSONBody writes an encoded JSON answer with its length: without
// one, an answer past net/http's 2 KiB buffer goes out chunked, in more
// writes to the socket (a page of bookings is 10-20 KiB).
func writeJSONBody(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// reply answers a handler's call: its error through writeError, or else v
// as JSON with 200.
func (s *Server) reply(w http.ResponseWriter, r *http.Request, v any, err error) {
	s.replyStatus(w, r, http.StatusOK, v, err)
}

// replyStatus is reply with another success status (201 for a creation).
func (s *Server) replyStatus(w http.ResponseWriter, r *http.Request, status int, v any, err error) {
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.WriteJSON(w, status, v)
}

// DecodeJSON reads a JSON body into v, refusing unknown fields, trailing
// data and oversized bodies. It writes the 400 itself and returns false; a
// field the API does not know, or one of the wrong type, is named in
// validationErrors.
func (s *Server) DecodeJSON(w http.ResponseWriter, r *http.Request, v any) bool {
	if ct := r.Header.Get("Content-Type"); ct != "" && !strings.HasPrefix(ct, "application/json") {
		s.writeMessage(w, r, http.StatusUnsupportedMediaType, "error.bad_request")
		return false
	}
	return s.decodeStrict(w, r, http.MaxBytesReader(w, r.Body, maxBody), v)
}

func (s *Server) decodeStrict(w http.ResponseWriter, r *http.Request, body io.Reader, v any) bool {
	dec := json.NewDecoder(body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		s.writeDecodeError(w, r, err)
		return false
	}
	if err := dec.Decode(&struct{}{}); !errors.Is(err, io.EOF) {
		s.writeMessage(w, r, http.StatusBadRequest, "error.bad_request")
		return false
	}
	return true
}

// writeDecodeError names the field of an unknown-field or wrong-type error
// (encoding/json says `json: unknown field "x"`); anything else is
// "The request could not be read."
func (s *Server) writeDecodeError(w http.ResponseWriter, r *http.Request, err error) {
	field, key := "", ""
	var typeErr *json.UnmarshalTypeError
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		field, key = strings.Trim(name, `"`), "error.unknown_field"
	} else if errors.As(err, &typeErr) && typeErr.Field != "" {
		field, key = typeErr.Field, "error.wrong_type"
	}
	if field == "" {
		s.writeMessage(w, r, http.StatusBadRequest, "error.bad_request")
		return
	}
	s.WriteJSON(w, http.StatusBadRequest, struct {
		ValidationErrors map[string][]string `json:"validationErrors"`
	}{map[string][]string{field: {s.Catalog.T(Lang(r), key, "field", field)}}})
}

type errorBody struct {
	Message  string `json:"message"`
	ErrorKey string `json:"errorKey,omitempty"`
}

// writeMessage writes {"message": …} translated into the request's language.
func (s *Server) writeMessage(w http.ResponseWriter, r *http.Request, status int, key string) {
	s.WriteJSON(w, status, errorBody{Message: s.Catalog.T(Lang(r), key)})
}

// ValidationErrors translates field errors into the wire form.
func (s *Server) ValidationErrors(r *http.Request, f validate.Errors) map[string][]string {
	out := make(map[string][]string, len(f))
	lang := Lang(r)
	for field, m := range f {
		out[field] = []string{s.Catalog.T(lang, m.Key, m.Args...)}
	}
	return out
}

var statusOf = map[apperr.Code]int{
	apperr.Invalid:         http.StatusBadRequest,
	apperr.Unauthenticated: http.StatusUnauthorized,
	apperr.Forbidden:       http.StatusForbidden,
	apperr.NotFound:        http.StatusNotFound,
	apperr.Conflict:        http.StatusConflict,
	apperr.TooMany:         http.StatusTooManyRequests,
	apperr.Unavailable:     http.StatusServiceUnavailable,
	apperr.Internal:        http.StatusInternalServerError,
}

// RetryAfterUnavailable is the Retry-After, in seconds, of an answer the
// database's outage made (a PostgreSQL restart takes a few seconds).
const RetryAfterUnavailable = 3

// StatusClientClosedRequest is the status logged for a request whose
// client went away before the answer (nginx's 499): nothing is sent.
const StatusClientClosedRequest = 499

// WriteError maps a domain error to its status and a translated body.
// Internal errors are logged with the request id and answered generically:
// at ERROR for a fault, at INFO for a catalogued answer (apperr.Expected)
// and for a request its client abandoned (context canceled), which gets no
// answer.
func (s *Server) WriteError(w http.ResponseWriter, r *http.Request, err error) {
	s.writeError(w, r, err)
}

// clientGone: the request failed because its client went away (the
// request's context ended, and the error says so).
func clientGone(r *http.Request, err error) bool {
	return r.Context().Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded))
}

func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	if clientGone(r, err) {
		s.Logger.Info("client gone", "request_id", RequestID(r.Context()), "err", err)
		w.WriteHeader(StatusClientClosedRequest)
		return
	}
	e := apperr.As(err)
	if what := s.unavailable(e, err); what != "" {
		// A database restart or a full disk, a gateway that cannot be
		// reached: the same request a moment later may well succeed, so
		// say so (a proxy or the app retries).
		s.Logger.Warn(what+" unavailable", "request_id", RequestID(r.Context()), "err", err)
		w.Header().Set("Retry-After", strconv.Itoa(RetryAfterUnavailable))
		s.writeMessage(w, r, http.StatusServiceUnavailable, "error.try_again_shortly")
		return
	}
	if e == nil || e.Code == apperr.Internal {
		if e != nil && e.Expected {
			s.Logger.Info("error key answered", "request_id", RequestID(r.Context()), "error_key", e.ErrorKey, "err", err)
		} else {
			s.Logger.Error("internal error", "request_id", RequestID(r.Context()), "err", err)
		}
		body := errorBody{Message: s.Catalog.T(Lang(r), "error.system")}
		if e != nil && e.ErrorKey != "" {
			// A catalogued key carries its own text (the maintenance
			// hours, "contact the contact center"), in the member's language.
			body.ErrorKey = e.ErrorKey
			if m := s.Catalog.T(Lang(r), e.MsgKey); e.MsgKey != "" && m != e.MsgKey {
				body.Message = m
			}
		}
		s.WriteJSON(w, http.StatusInternalServerError, body)
		return
	}
	if e.Code == apperr.Invalid && len(e.Fields) > 0 {
		s.WriteJSON(w, http.StatusBadRequest, map[string]any{"validationErrors": s.ValidationErrors(r, e.Fields)})
		return
	}
	if e.Code == apperr.TooMany {
		w.Header().Set("Retry-After", "900")
	}
	s.WriteJSON(w, statusOf[e.Code], errorBody{Message: s.Catalog.T(Lang(r), e.MsgKey), ErrorKey: e.ErrorKey})
}

// unavailable names what err says cannot answer just now, "" when it is a
// domain error or a fault of another kind.
func (s *Server) unavailable(e *apperr.Error, err error) string {
	if (e != nil && e.Code != apperr.Internal) || s.Unavailable == nil {
		return ""
	}
	return s.Unavailable(err)
}

// paramError answers a malformed path or query parameter. A missing
// required one and one of the wrong type are named in validationErrors, as
// a body field is; anything else is "The request could not be read."
func (s *Server) paramError(w http.ResponseWriter, r *http.Request, err error) {
	name, key := paramProblem(err)
	if name == "" {
		s.writeMessage(w, r, http.StatusBadRequest, "error.bad_request")
		return
	}
	s.WriteJSON(w, http.StatusBadRequest, struct {
		ValidationErrors map[string][]string `json:"validationErrors"`
	}{map[string][]string{name: {s.Catalog.T(Lang(r), key, "field", name)}}})
}

// paramProblem reads the parameter errors of the generated routers (each
// API package has its own copies of RequiredParamError,
// InvalidParamFormatError…, all with a ParamName): the parameter and the
// message key, or "" when err is none of them.
func paramProblem(err error) (name, key string) {
	v := reflect.ValueOf(err)
	if v.Kind() == reflect.Pointer && !v.IsNil() {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return "", ""
	}
	f := v.FieldByName("ParamName")
	if !f.IsValid() || f.Kind() != reflect.String || f.String() == "" {
		return "", ""
	}
	switch v.Type().Name() {
	case "RequiredParamError":
		return f.String(), "validation.required"
	case "InvalidParamFormatError", "UnmarshalingParamError":
		return f.String(), "error.wrong_type"
	}
	return "", ""
}

// ParamError is paramError for feature mounts (generated ErrorHandlerFunc).
func (s *Server) ParamError(w http.ResponseWriter, r *http.Request, err error) {
	s.paramError(w, r, err)
}
