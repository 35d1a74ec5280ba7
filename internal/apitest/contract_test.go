package apitest

import (
	"net/http"
	"testing"
)

func TestCheckContract(t *testing.T) {
	jsonCT := http.Header{"Content-Type": {"application/json; charset=utf-8"}}
	tests := []struct {
		name, method, path string
		status             int
		header             http.Header
		body               string
		ok                 bool
	}{
		{"documented 204", "GET", "/api/session", 204, http.Header{}, "", true},
		{"documented 403 body", "GET", "/api/session", 403, jsonCT, `{"message":"x"}`, true},
		{"403 without message", "GET", "/api/session", 403, jsonCT, `{"error":"x"}`, false},
		{"good body", "GET", "/api/session/info", 200, jsonCT, `{"sessionLogId":"a","loggedIn":true}`, true},
		{"missing field", "GET", "/api/session/info", 200, jsonCT, `{"sessionLogId":"a"}`, false},
		{"wrong type", "GET", "/api/session/info", 200, jsonCT, `{"sessionLogId":1,"loggedIn":true}`, false},
		{"undocumented status", "GET", "/api/session/info", 418, jsonCT, `{"message":"x"}`, false},
		{"500 anywhere", "GET", "/api/session/info", 500, jsonCT, `{"message":"x"}`, true},
		{"500 not JSON", "GET", "/api/session/info", 500, http.Header{"Content-Type": {"text/plain"}}, "boom", false},
		{"unknown path 404", "GET", "/api/nope", 404, jsonCT, `{"message":"x"}`, true},
		{"unknown path 200", "GET", "/api/nope", 200, jsonCT, `{}`, false},
		{"wrong method 405", "PUT", "/api/session", 405, jsonCT, `{"message":"x"}`, true},
		{"web app", "GET", "/login", 200, http.Header{"Content-Type": {"text/html"}}, "<html>", true},
		{"validation errors", "POST", "/api/session", 400, jsonCT, `{"validationErrors":{"email":["x"]}}`, true},
		{"bad body error", "POST", "/api/session", 400, jsonCT, `{"message":"x"}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(tt.method, "http://127.0.0.1:1"+tt.path, nil)
			err := CheckContract(req, tt.status, tt.header, []byte(tt.body))
			if (err == nil) != tt.ok {
				t.Fatalf("ok = %v, want %v (err %v)", err == nil, tt.ok, err)
			}
		})
	}
}
