// Package urlquery adds a parameter to a URL's query string, for the
// return addresses the payment gateways hand back to the member's browser.
package urlquery

import "net/url"

// With returns raw with name=value set in its query (replacing any value
// name had); a raw that does not parse is returned as it is.
func With(raw, name, value string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	q := u.Query()
	q.Set(name, value)
	u.RawQuery = q.Encode()
	return u.String()
}
