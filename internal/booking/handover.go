package booking

import (
	"net/url"
	"strings"

	"members/internal/i18n"
)

// BookingSite builds the addresses that send a member to the booking
// site: its booking search, or one booking's change page. They carry no
// credential: the booking site signs the member in silently with OpenID
// Connect (prompt=none), this members' area being its provider
// (internal/oidcprovider), and sends the member back to /login?sso=failed
// when that fails.
type BookingSite struct{ base string }

// NewBookingSite returns the booking site at base.
func NewBookingSite(base string) BookingSite {
	return BookingSite{base: strings.TrimRight(base, "/")}
}

// URL is the booking site's address for pnr ("" for its booking search)
// in lang.
func (b BookingSite) URL(pnr string, lang i18n.Lang) string {
	path := "/booking/search"
	if pnr != "" {
		path = "/booking/" + url.PathEscape(pnr) + "/edit"
	}
	return b.base + path + "?" + url.Values{"lang": {string(lang)}}.Encode()
}
