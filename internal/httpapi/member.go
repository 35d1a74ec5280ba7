package httpapi

import (
	"context"
	"net/http"

	"members/internal/auth"
)

// SessionFrom returns the session of an authenticated request.
func SessionFrom(ctx context.Context) (auth.Session, bool) {
	s, ok := ctx.Value(keySession).(auth.Session)
	return s, ok
}

// session is the request's session; the middleware guarantees one on every
// call that is not anonymous (an anonymous call gets the zero session).
func session(r *http.Request) auth.Session {
	s, _ := SessionFrom(r.Context())
	return s
}

// member is the session's member id: every handler that reads or changes a
// member's data passes it to its service, which answers 404 for what
// belongs to another member.
func member(r *http.Request) string {
	return session(r).MemberID
}

// str is an optional generated parameter as a plain string ("" when absent).
func str[T ~string](p *T) string {
	if p == nil {
		return ""
	}
	return string(*p)
}
