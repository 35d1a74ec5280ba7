package httpapi

import (
	"errors"
	"log/slog"
	"net/http"
	"time"

	"members/internal/account"
	"members/internal/apperr"
	"members/internal/i18n"
	"members/internal/privacy"
)

// MembersFeedPath is the booking site's provisioning feed of members
// (PUT, DELETE; POST …/deactivate and …/reactivate).
const MembersFeedPath = "/ops/v1/members/{memberNumber}"

// maxMemberBody caps a member's body.
const maxMemberBody = 16 << 10

// MembersFeed is the provisioning feed. Every call is signed as the
// flight events feed (ReadSignedFeed), with the members feed's secrets.
// Answers: 200 {memberNumber, outcome}; 400 {error: invalid,
// validationErrors} by the account page's rules (English texts) or
// malformed; 404 not_found for an unknown member number (DELETE,
// deactivate, reactivate); 409 email_taken, or payment_pending for an
// erasure while a payment waits for the gateway. Nothing is stored
// unless 200.
type MembersFeed struct {
	Provisioner *account.Provisioner
	Privacy     *privacy.Service
	Catalog     *i18n.Catalog
	Secrets     FeedSecrets
	Now         func() time.Time
	Logger      *slog.Logger
}

// Mount adds the feed's routes.
func (f *MembersFeed) Mount(mux *http.ServeMux) {
	mux.HandleFunc("PUT "+MembersFeedPath, f.put)
	mux.HandleFunc("DELETE "+MembersFeedPath, f.erase)
	mux.HandleFunc("POST "+MembersFeedPath+"/deactivate", f.active(false))
	mux.HandleFunc("POST "+MembersFeedPath+"/reactivate", f.active(true))
}

func (f *MembersFeed) fields(e *apperr.Error) map[string][]string {
	out := make(map[string][]string, len(e.Fields))
	for field, m := range e.Fields {
		out[field] = []string{f.Catalog.T(i18n.Default, m.Key, m.Args...)}
	}
	return out
}

func (f *MembersFeed) answer(w http.ResponseWriter, number, outcome string, err error) {
	var ae *apperr.Error
	switch {
	case err == nil:
		FeedReply(w, http.StatusOK, map[string]string{"memberNumber": number, "outcome": outcome})
	case errors.As(err, &ae) && ae.Code == apperr.Invalid && len(ae.Fields) > 0:
		FeedReply(w, http.StatusBadRequest, map[string]any{"error": "invalid", "validationErrors": f.fields(ae)})
	case errors.Is(err, account.ErrEmailTaken):
		FeedFail(w, http.StatusConflict, "email_taken", "another member has this e-mail address")
	case errors.Is(err, account.ErrNotFound), errors.Is(err, privacy.ErrNotFound):
		FeedFail(w, http.StatusNotFound, "not_found", "no member has this member number")
	case errors.Is(err, privacy.ErrPaymentPending):
		FeedFail(w, http.StatusConflict, "payment_pending", "a payment of the member waits for the gateway; send the erasure again later")
	default:
		f.Logger.Error("members feed", "err", err)
		FeedFail(w, http.StatusInternalServerError, "internal", "the call could not be applied; send it again")
	}
}

func (f *MembersFeed) put(w http.ResponseWriter, r *http.Request) {
	var in account.ProvisionInput
	if !ReadSignedFeed(w, r, f.Secrets, f.Now(), maxMemberBody, &in) {
		return
	}
	number := r.PathValue("memberNumber")
	outcome, err := f.Provisioner.Provision(r.Context(), number, in)
	f.answer(w, number, outcome, err)
}

func (f *MembersFeed) erase(w http.ResponseWriter, r *http.Request) {
	if !ReadSignedFeed(w, r, f.Secrets, f.Now(), maxMemberBody, nil) {
		return
	}
	number := r.PathValue("memberNumber")
	m, err := f.Provisioner.Member(r.Context(), number)
	if err == nil {
		lang, ok := i18n.Parse(m.Lang)
		if !ok {
			lang = i18n.Default
		}
		err = f.Privacy.EraseNow(r.Context(), m.ID, lang)
	}
	f.answer(w, number, "erased", err)
}

func (f *MembersFeed) active(active bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !ReadSignedFeed(w, r, f.Secrets, f.Now(), maxMemberBody, nil) {
			return
		}
		number := r.PathValue("memberNumber")
		var err error
		outcome := "reactivated"
		if active {
			err = f.Provisioner.Reactivate(r.Context(), number)
		} else {
			outcome = "deactivated"
			err = f.Provisioner.Deactivate(r.Context(), number)
		}
		f.answer(w, number, outcome, err)
	}
}
