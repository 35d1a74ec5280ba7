// Package api holds code generated from api/openapi.yaml, one package per
// tag (platformapi, accountapi, bookingapi): the request and response types
// and a ServerInterface that internal/httpapi implements. Splitting by tag
// lets each feature grow its part of the API without touching the others.
// Never edit *.gen.go by hand; run `make gen` (a test fails when stale).
package api
