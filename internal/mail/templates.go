package mail

import (
	"bytes"
	"embed"
	"fmt"
	htmltemplate "html/template"
	"strings"
	texttemplate "text/template"

	"members/internal/brand"
	"members/internal/i18n"
)

//go:embed templates/*.tmpl
var templateFiles embed.FS

// Detail is a label and value line (booking number, date…). Number marks
// a value the member reads out or types (a slip's numbers at the shop's
// till, a voucher's number and PIN): the HTML part never breaks it, and
// its label gives way on a narrow screen.
type Detail struct {
	Label, Value string
	Number       bool
}

// Action is the mail's one link (a reset link, a page of the site).
type Action struct{ Label, URL string }

// Content is what a mail says; the layout templates render it.
type Content struct {
	Subject    string
	Greeting   string
	Paragraphs []string
	Details    []Detail
	Action     *Action
	// Notice is the "if you did not make this change" line: only on the
	// mails about a change to the account or its security (SecurityNotice).
	Notice string
	Footer string
	// Unsubscribe is the link under the footer of an optional mail.
	Unsubscribe *Action
}

// Data fills a standard mail: the member's name for the greeting, the
// {placeholder} arguments of the catalogue texts (name, value pairs),
// optional details and the action URL (used when the kind has an action).
type Data struct {
	// Name is the member's name as written; Given and Family, when either
	// is set, write it in the language's order instead (i18n.PersonName:
	// family name first in Japanese, Korean and Chinese).
	Name          string
	Given, Family string
	Args          []any
	Details       []Detail
	URL           string
	// Unsubscribe, on an optional mail, is its one-click unsubscribe link.
	Unsubscribe *Action
	// Secrets are values of the mail the outbox forgets once it is sent
	// (Message.Secrets): a PIN in Details, the token in URL.
	Secrets []string
}

// Templates renders mails in the eight languages.
type Templates struct {
	cat   *i18n.Catalog
	brand brand.Brand
	text  *texttemplate.Template
	html  *htmltemplate.Template
}

// NewTemplates parses the embedded layouts.
func NewTemplates(cat *i18n.Catalog) (*Templates, error) {
	t, err := texttemplate.ParseFS(templateFiles, "templates/layout.txt.tmpl")
	if err != nil {
		return nil, fmt.Errorf("mail: text layout: %w", err)
	}
	h, err := htmltemplate.New("layout.html.tmpl").Funcs(htmltemplate.FuncMap{
		"lines": func(p string) []string { return strings.Split(p, "\n") },
	}).ParseFS(templateFiles, "templates/layout.html.tmpl")
	if err != nil {
		return nil, fmt.Errorf("mail: html layout: %w", err)
	}
	b, err := brand.Load()
	if err != nil {
		return nil, err
	}
	return &Templates{cat: cat, brand: b, text: t, html: h}, nil
}

// Kinds of mail sent by the account feature (each has catalogue texts
// mail.<kind>.subject and mail.<kind>.body; reset has mail.<kind>.action).
const (
	KindProfileUpdated   = "profile_updated"
	KindPasswordChanged  = "password_changed"
	KindPasswordReset    = "password_reset"
	KindPassengerAdded   = "passenger_added"
	KindPassengerChanged = "passenger_changed"
	KindPassengerDeleted = "passenger_deleted"
)

// SecurityNotice lists the kinds of mail about a change to the account
// that carry the "if you did not make this change, contact us" line.
// Mails about a purchase, a booking or a flight do not; the security
// centre's, card and e-mail change mails say it in their own words.
var SecurityNotice = map[string]bool{
	KindProfileUpdated:   true,
	KindPasswordChanged:  true,
	KindPassengerAdded:   true,
	KindPassengerChanged: true,
	KindPassengerDeleted: true,
}

// Standard builds the mail of a kind from the catalogue texts
// mail.<kind>.subject, mail.<kind>.body (paragraphs separated by a blank
// line) and, when d.URL is set, mail.<kind>.action as the link label.
// Catalog is the message catalogue the templates read (for values a mail
// formats itself, such as a labelled deadline).
func (t *Templates) Catalog() *i18n.Catalog { return t.cat }

func (t *Templates) Standard(kind string, lang i18n.Lang, to string, d Data) (Message, error) {
	name := d.Name
	if d.Given != "" || d.Family != "" {
		name = i18n.PersonName(lang, d.Given, d.Family)
	}
	args := append([]any{"name", name}, d.Args...)
	c := Content{
		Subject:     t.cat.T(lang, "mail."+kind+".subject", args...),
		Greeting:    t.cat.T(lang, "mail.greeting", "name", name),
		Details:     d.Details,
		Footer:      t.cat.T(lang, "mail.footer"),
		Unsubscribe: d.Unsubscribe,
	}
	if SecurityNotice[kind] {
		c.Notice = t.cat.T(lang, "mail.security_notice")
	}
	for _, p := range strings.Split(t.cat.T(lang, "mail."+kind+".body", args...), "\n\n") {
		if p = strings.TrimSpace(p); p != "" {
			c.Paragraphs = append(c.Paragraphs, p)
		}
	}
	if d.URL != "" {
		c.Action = &Action{Label: t.cat.T(lang, "mail."+kind+".action", args...), URL: d.URL}
	}
	m, err := t.Compose(kind, lang, to, c)
	m.Secrets = d.Secrets
	return m, err
}

// Compose renders content into a message (text and HTML parts).
func (t *Templates) Compose(kind string, lang i18n.Lang, to string, c Content) (Message, error) {
	view := struct {
		Content
		Brand, HTMLLang string
	}{c, t.brand.Name(lang), lang.Tag().String()}
	var tb, hb bytes.Buffer
	if err := t.text.Execute(&tb, view); err != nil {
		return Message{}, fmt.Errorf("mail: render text: %w", err)
	}
	if err := t.html.Execute(&hb, view); err != nil {
		return Message{}, fmt.Errorf("mail: render html: %w", err)
	}
	return Message{Kind: kind, To: to, Lang: lang, Subject: c.Subject, Text: tb.String(), HTML: hb.String()}, nil
}
