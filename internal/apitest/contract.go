package apitest

// The contract check: every response an apitest Client receives is
// validated against api/openapi.yaml with kin-openapi, so a handler that
// drifts from the description fails the test that called it.
//
// The rules, chosen so that deliberate negative tests (unknown paths, wrong
// methods) still run while real drift is caught:
//   - A request that matches an operation of the description: the response
//     must be one of its documented statuses (or default), and its JSON body
//     must match the documented schema (kin-openapi, IncludeResponseStatus).
//     Exception: 500, 413 and 415 may come from any operation (the recover
//     middleware and body checks are global); their body must still be the
//     generic error object {"message": …}.
//   - A request that matches no operation (unknown path, wrong method):
//     a 2xx answer is a contract breach (an undocumented endpoint); any other
//     answer must be the generic JSON error object.
//   - Bodies that are not JSON (PDFs, the web app's HTML on non-API paths)
//     are not validated; paths outside /api and /api_ext are not checked.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
)

var (
	contractOnce   sync.Once
	contractRouter routers.Router
	contractErr    error
)

// SpecPath is the API description the contract check uses.
func SpecPath() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "api", "openapi.yaml")
}

func loadContract() (routers.Router, error) {
	contractOnce.Do(func() {
		loader := openapi3.NewLoader()
		doc, err := loader.LoadFromFile(SpecPath())
		if err != nil {
			contractErr = fmt.Errorf("load %s: %w", SpecPath(), err)
			return
		}
		// Route on the path alone: the test server's host is not a server
		// of the description.
		doc.Servers = nil
		contractRouter, err = legacy.NewRouter(doc)
		if err != nil {
			contractErr = fmt.Errorf("api/openapi.yaml: %w", err)
		}
	})
	return contractRouter, contractErr
}

// CheckContract validates one finished call against api/openapi.yaml and
// returns a description of the breach, or nil.
func CheckContract(req *http.Request, status int, header http.Header, body []byte) error {
	p := req.URL.Path
	if !strings.HasPrefix(p, "/api/") && !strings.HasPrefix(p, "/api_ext/") {
		return nil
	}
	// A quiet answer (the web app's X-Quiet-Errors) is checked as the status it stands for.
	if q, err := strconv.Atoi(header.Get("X-Status")); err == nil && status == http.StatusOK {
		status = q
	}
	ct := header.Get("Content-Type")
	isJSON := strings.HasPrefix(ct, "application/json")
	if len(body) > 0 && !isJSON {
		if strings.HasPrefix(ct, "application/pdf") || strings.HasPrefix(ct, "text/calendar") {
			return nil // documents: not described as JSON
		}
	}
	router, err := loadContract()
	if err != nil {
		return err
	}
	route, params, err := router.FindRoute(req)
	if err != nil {
		var re *routers.RouteError
		if !errors.As(err, &re) {
			return fmt.Errorf("route %s %s: %w", req.Method, p, err)
		}
		if status >= 200 && status < 300 {
			return fmt.Errorf("%s %s answered %d but is not in api/openapi.yaml", req.Method, p, status)
		}
		return genericError(status, ct, body)
	}
	if anyOperation[status] && route.Operation.Responses.Status(status) == nil {
		return genericError(status, ct, body)
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{
			Request: req, PathParams: params, Route: route,
		},
		Status: status,
		Header: header,
		Options: &openapi3filter.Options{
			IncludeResponseStatus: true,
			MultiError:            true,
		},
	}
	in.Options.WithCustomSchemaErrorFunc(func(e *openapi3.SchemaError) string {
		return "/" + strings.Join(e.JSONPointer(), "/") + ": " + e.Reason
	})
	in.SetBodyBytes(body)
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		return fmt.Errorf("%s %s → %d breaks api/openapi.yaml (%s): %v\nbody: %s",
			req.Method, p, status, route.Path, err, clipBody(body))
	}
	return nil
}

// anyOperation are the statuses every operation may answer without
// documenting them: transport-level refusals of the body, the recover
// middleware's 500 and the 503 of a database outage (Retry-After).
var anyOperation = map[int]bool{
	http.StatusRequestEntityTooLarge: true, http.StatusUnsupportedMediaType: true,
	http.StatusInternalServerError: true, http.StatusServiceUnavailable: true,
}

// genericError checks the body of an error answer outside the described
// operations: a JSON object with a message.
func genericError(status int, ct string, body []byte) error {
	var v struct {
		Message *string `json:"message"`
	}
	if !strings.HasPrefix(ct, "application/json") || json.Unmarshal(body, &v) != nil || v.Message == nil {
		return fmt.Errorf("status %d: want a JSON error body {\"message\": …}, got %q %s", status, ct, clipBody(body))
	}
	return nil
}

func clipBody(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "…"
	}
	return string(b)
}

// checkContract is called by Client.Do for every response.
func (c *Client) checkContract(t testing.TB, req *http.Request, resp *http.Response, body []byte) {
	t.Helper()
	if c.NoContract {
		return
	}
	// The request body was consumed; validation needs only method and URL.
	r2 := req.Clone(req.Context())
	r2.Body = io.NopCloser(bytes.NewReader(nil))
	if err := CheckContract(r2, resp.StatusCode, resp.Header, body); err != nil {
		t.Errorf("contract: %v", err)
	}
}
