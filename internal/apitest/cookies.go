package apitest

import (
	"net/http"
	"net/url"
)

// Cookie returns the value of the client's cookie name ("" when none).
func (c *Client) Cookie(name string) string {
	u, _ := url.Parse(c.env.Server.URL)
	for _, k := range c.http.Jar.Cookies(u) {
		if k.Name == name {
			return k.Value
		}
	}
	return ""
}

// SetCookie puts a cookie in the client's jar (to replay an old session).
func (c *Client) SetCookie(name, value string) {
	u, _ := url.Parse(c.env.Server.URL)
	c.http.Jar.SetCookies(u, []*http.Cookie{{Name: name, Value: value, Path: "/"}})
}

// Cookies parses the Set-Cookie headers of a response.
func (r *Response) Cookies() []*http.Cookie {
	return (&http.Response{Header: r.Header}).Cookies()
}

// SetCookie returns the Set-Cookie of name in the response, or nil.
func (r *Response) SetCookie(name string) *http.Cookie {
	for _, k := range r.Cookies() {
		if k.Name == name {
			return k
		}
	}
	return nil
}

// HTTP is the client's own http.Client (its cookie jar; it follows no
// redirect), for a test that drives a browser flow across sites (the
// OpenID Connect provider's redirects).
func (c *Client) HTTP() *http.Client { return c.http }

// URL is the server's base URL.
func (e *Env) URL() string { return e.Server.URL }
