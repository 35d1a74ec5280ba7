package httpapi

import (
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"html/template"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"

	"members/internal/i18n"
	"members/internal/notify"
)

// unsubscribeStyle is the page's only style; the page's CSP allows exactly
// this text by its hash.
const unsubscribeStyle = `body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;line-height:1.5;color:#222}` +
	`h1{font-size:1.4rem}button{font:inherit;padding:.6rem 1.4rem;border:0;border-radius:.3rem;background:#c8006e;color:#fff;cursor:pointer}` +
	`a{color:#c8006e}`

var unsubscribeCSP = func() string {
	sum := sha256.Sum256([]byte(unsubscribeStyle))
	return "default-src 'none'; style-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) +
		"'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
}()

var unsubscribePage = template.Must(template.New("unsubscribe").Parse(`<!doctype html>
<html lang="{{.HTMLLang}}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>{{.Title}}</title><style>{{.Style}}</style></head>
<body><main><h1>{{.Title}}</h1><p>{{.Text}}</p>
{{- if .Confirm}}<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">{{.Button}}</button></form>{{end}}
{{- if .SettingsURL}}<p><a href="{{.SettingsURL}}">{{.SettingsLabel}}</a></p>{{end}}
</main></body></html>
`))

// unsubscribeView fills the page.
type unsubscribeView struct {
	HTMLLang, Title, Text, Button, SettingsURL, SettingsLabel string
	Style                                                     template.CSS
	Confirm                                                   bool
}

// Unsubscribe serves the one-click unsubscribe links of the optional mails
// (notify.UnsubscribePath, outside /api, without a session: the signed
// link is the proof). GET shows a small page in the member's mail language
// that asks to confirm; POST switches the kind off, as a mail client does
// for List-Unsubscribe-Post (RFC 8058) or the page's button. A link whose
// signature is not the server's is refused (403) and changes nothing.
func Unsubscribe(svc *notify.Service, cat *i18n.Catalog, logger *slog.Logger, unavailable func(error) string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		memberID, kind, sig := q.Get("m"), q.Get("k"), q.Get("s")
		var (
			link notify.Link
			err  error
		)
		if r.Method == http.MethodPost {
			// RFC 8058's body is List-Unsubscribe=One-Click; the link
			// alone decides, so the body is read only to be drained.
			_, _ = io.Copy(io.Discard, http.MaxBytesReader(w, r.Body, 4096))
			link, err = svc.Unsubscribe(r.Context(), memberID, kind, sig)
		} else {
			link, err = svc.CheckLink(r.Context(), memberID, kind, sig)
		}
		lang := link.Lang
		if err != nil {
			lang = i18n.FromBrowser(r.Header.Get("Accept-Language"))
		}
		t := func(key string, args ...any) string { return cat.T(lang, key, args...) }
		v := unsubscribeView{HTMLLang: lang.Tag().String(), Style: template.CSS(unsubscribeStyle)} // #nosec G203 -- a constant of this file
		status := http.StatusOK
		switch {
		case errors.Is(err, notify.ErrBadLink):
			status = http.StatusForbidden
			v.Title, v.Text = t("notify.unsubscribe.invalid_title"), t("notify.unsubscribe.invalid")
		case errors.Is(err, notify.ErrNotFound):
			status = http.StatusNotFound
			v.Title, v.Text = t("notify.unsubscribe.invalid_title"), t("notify.unsubscribe.invalid")
		case err != nil && unavailable(err) != "":
			logger.Warn("unsubscribe: "+unavailable(err)+" unavailable", "err", err)
			status = http.StatusServiceUnavailable
			w.Header().Set("Retry-After", strconv.Itoa(RetryAfterUnavailable))
			v.Title, v.Text = t("notify.unsubscribe.error_title"), t("error.try_again_shortly")
		case err != nil:
			logger.Error("unsubscribe", "err", err)
			status = http.StatusInternalServerError
			v.Title, v.Text = t("notify.unsubscribe.error_title"), t("notify.unsubscribe.error")
		default:
			what := t("notify.kind." + string(link.Kind))
			v.SettingsURL = "/account/notifications?" + url.Values{"lang": {string(lang)}}.Encode()
			v.SettingsLabel = t("notify.unsubscribe.settings")
			if r.Method == http.MethodPost {
				v.Title, v.Text = t("notify.unsubscribe.done_title"), t("notify.unsubscribe.done", "kind", what)
			} else {
				v.Title, v.Text, v.Button = t("notify.unsubscribe.title"), t("notify.unsubscribe.question", "kind", what), t("notify.unsubscribe.button")
				v.Confirm = true
			}
		}
		h := w.Header()
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Content-Security-Policy", unsubscribeCSP)
		h.Set("Cache-Control", "no-store")
		// The link carries its signature: never pass it on.
		h.Set("Referrer-Policy", "no-referrer")
		w.WriteHeader(status)
		if err := unsubscribePage.Execute(w, v); err != nil {
			logger.Warn("unsubscribe page", "err", err)
		}
	})
}
