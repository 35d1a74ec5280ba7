package mailtest

import (
	"testing"

	"members/internal/i18n"
	"members/internal/mail"
)

// Templates are the server's catalogue and the mail templates made from
// it, for the tests that write mails (in any package, app's own too).
func Templates(t testing.TB) (*i18n.Catalog, *mail.Templates) {
	t.Helper()
	cat, err := i18n.New()
	if err != nil {
		t.Fatal(err)
	}
	tpl, err := mail.NewTemplates(cat)
	if err != nil {
		t.Fatal(err)
	}
	return cat, tpl
}
