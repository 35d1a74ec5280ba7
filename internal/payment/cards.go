package payment

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"members/internal/apperr"
	"members/internal/i18n"
	"members/internal/mail"
	"members/internal/notify"
	"members/internal/validate"
)

// CardStore keeps saved cards.
type CardStore interface {
	Cards(ctx context.Context, memberID string) ([]SavedCard, error)
	// Card returns the saved card (ErrNotFound when missing).
	Card(ctx context.Context, gateway, token string) (SavedCard, error)
	// AddCard saves c; a card already saved by the same member is kept.
	AddCard(ctx context.Context, c SavedCard) error
	DeleteCard(ctx context.Context, memberID, gateway, token string) error
	// Contact is the member's e-mail address, given and family names for
	// mails, and the mail language the member chose ("" for none).
	Contact(ctx context.Context, memberID string) (email, given, family, mailLang string, err error)
}

// ErrNotFound is what stores return for a missing row.
var ErrNotFound = errors.New("payment: not found")

// Mailer sends a mail (mail.Mailer).
type Mailer interface {
	Send(ctx context.Context, m mail.Message) error
}

// Cards is the saved-cards service.
type Cards struct {
	store     CardStore
	gw        Gateway
	mailer    Mailer
	templates *mail.Templates
	now       func() time.Time
	log       *slog.Logger
	// returnBase is the site's public URL, where a gateway sends the
	// member back after a card check's customer step (CardSetup).
	returnBase string
}

// NewCards returns the saved-cards service.
func NewCards(s CardStore, gw Gateway, m Mailer, t *mail.Templates, now func() time.Time, log *slog.Logger) *Cards {
	return &Cards{store: s, gw: gw, mailer: m, templates: t, now: now, log: log}
}

// WithReturnBase sets the site's public URL a gateway returns the member
// to after a card check's customer step (3-D Secure).
func (c *Cards) WithReturnBase(u string) *Cards {
	c.returnBase = strings.TrimRight(u, "/")
	return c
}

// CardList is the answer of GET /api/cc.
type CardList struct {
	Creditcards []SavedCardView `json:"creditcards"`
}

// List returns the member's cards in brand display order.
func (c *Cards) List(ctx context.Context, memberID string) (CardList, error) {
	cs, err := c.store.Cards(ctx, memberID)
	if err != nil {
		return CardList{}, fmt.Errorf("cards: list: %w", err)
	}
	SortCards(cs)
	now := c.now()
	out := CardList{Creditcards: make([]SavedCardView, 0, len(cs))}
	for _, x := range cs {
		out.Creditcards = append(out.Creditcards, x.view(now, c.gw.Name()))
	}
	return out, nil
}

// RegisterInput is the body of POST /api/cc/register.
type RegisterInput struct {
	Token    string
	Gateway  string
	Currency string
}

// Registered is the answer of a registration.
type Registered struct {
	Creditcard SavedCardView `json:"creditcard"`
	MailSent   bool          `json:"mailSent"`
	// Status "requires_action": the check needs the member (3-D Secure)
	// at NextAction's page, which returns to /payment-methods?setup=SetupID;
	// the card is saved by CompleteSetup then. Empty: saved.
	Status     string      `json:"status,omitempty"`
	SetupID    string      `json:"setupId,omitempty"`
	NextAction *NextAction `json:"nextAction,omitempty"`
}

// maxCardsPerMember bounds the saved cards (a list page, not a vault).
const maxCardsPerMember = 20

// Register saves a card tokenised in the browser: the gateway is asked for
// the token's brand, last digits and expiry, so nothing the browser claims
// about the card is trusted, and the issuer is asked by a zero-amount
// authorisation whether the card works: a declined or expired card is
// refused with the reason and never saved.
func (c *Cards) Register(ctx context.Context, memberID string, lang i18n.Lang, in RegisterInput) (Registered, error) {
	errs := validate.Errors{}
	if errs.Required("token", in.Token) {
		errs.MaxLen("token", in.Token, 100)
	}
	if in.Gateway == "" {
		in.Gateway = c.gw.Name()
	}
	errs.Check("gateway", in.Gateway == c.gw.Name(), "payment.card.gateway_unknown")
	in.Currency = NormalizeCurrency(in.Currency)
	if errs.Required("currency", in.Currency) {
		errs.Check("currency", ValidCurrency(in.Currency) || in.Currency == ScopeAll || in.Currency == ScopeNonJPY,
			"payment.currency.unknown")
	}
	if !errs.Empty() {
		return Registered{}, apperr.FromFields(errs)
	}
	tok, err := c.gw.Token(ctx, in.Token)
	if errors.Is(err, ErrUnknownToken) {
		errs.Add("token", "payment.card.token_unknown")
		return Registered{}, apperr.FromFields(errs)
	}
	if err != nil {
		return Registered{}, fmt.Errorf("cards: register: %w", err)
	}
	if existing, err := c.store.Card(ctx, in.Gateway, in.Token); err == nil && existing.MemberID != memberID {
		return Registered{}, apperr.ErrNotFound
	}
	now := c.now()
	if !CardValid(tok.ExpirationDate, now) {
		errs.Add("token", "payment.card.expired")
		return Registered{}, apperr.FromFields(errs)
	}
	card := SavedCard{
		MemberID: memberID, Gateway: in.Gateway, Token: in.Token, Brand: tok.Brand, Last4: tok.Last4,
		ExpirationDate: tok.ExpirationDate, HolderName: tok.HolderName, Currency: scopeFor(tok.Brand, in.Currency), CreatedAt: now,
	}
	cs, err := c.store.Cards(ctx, memberID)
	if err != nil {
		return Registered{}, fmt.Errorf("cards: register: %w", err)
	}
	if dup, found := SameCard(cs, card); found {
		errs.Add("token", "payment.card.duplicate", "brand", brandLabel(dup.Brand), "last4", dup.Last4)
		return Registered{}, apperr.FromFields(errs)
	}
	if len(cs) >= maxCardsPerMember {
		errs.Add("token", "payment.card.too_many", "max", maxCardsPerMember)
		return Registered{}, apperr.FromFields(errs)
	}
	if setup, ok := c.gw.(CardSetup); ok {
		return c.setup(ctx, setup, lang, card)
	}
	refusal, err := verifyRefusal(ctx, c.gw, in.Gateway, in.Token)
	if err != nil {
		return Registered{}, fmt.Errorf("cards: register: verify: %w", err)
	}
	if refusal != "" {
		errs.Add("token", refusal)
		return Registered{}, apperr.FromFields(errs)
	}
	if err := c.store.AddCard(ctx, card); err != nil {
		return Registered{}, fmt.Errorf("cards: register: %w", err)
	}
	sent := c.mail(ctx, memberID, lang, "card_registered", card)
	return Registered{Creditcard: card.view(now, c.gw.Name()), MailSent: sent}, nil
}

// setup checks a card with a gateway whose check may need the member
// (CardSetup): saved at once when the check succeeded, refused with the
// issuer's reason, or handed back with the member's page.
//
// The idempotency key is the card's (a double click or a repeat makes one
// check), until a check of it ended in a failed customer step: the
// gateway keeps a key's answer for a day and would hand the failed check
// back for every new attempt with the same card. A repeat whose answer is
// a check waiting for the member is therefore read again; one that has
// failed since makes the next attempt under a new key, named after the
// failed check (so a double click of that attempt still makes one).
func (c *Cards) setup(ctx context.Context, gw CardSetup, lang i18n.Lang, card SavedCard) (Registered, error) {
	key := "cs_" + card.Gateway + "_" + card.MemberID + "_" + card.Token + "_" + card.Currency
	var res CardSetupResult
	var err error
	for range 8 {
		res, err = gw.SetupCard(ctx, key, CardSetupInput{
			MemberID: card.MemberID, Token: card.Token, Scope: card.Currency, ReturnURL: c.returnBase + "/payment-methods",
		})
		if err != nil || res.SetupID == "" || (res.Status != VerifyRequiresAction && res.Status != VerifyPending) {
			break
		}
		now, serr := gw.CardSetupStatus(ctx, res.SetupID)
		if serr != nil || now.Status != VerifyFailed {
			break
		}
		// the member failed this check's step before: a new attempt
		key = "cs_" + card.Gateway + "_" + card.MemberID + "_after_" + res.SetupID
	}
	if errors.Is(err, ErrUnknownToken) {
		errs := validate.Errors{}
		errs.Add("token", "payment.card.token_unknown")
		return Registered{}, apperr.FromFields(errs)
	}
	if err != nil {
		return Registered{}, fmt.Errorf("cards: register: setup: %w", err)
	}
	return c.afterSetup(ctx, lang, card, res)
}

// afterSetup answers a card check by its outcome.
func (c *Cards) afterSetup(ctx context.Context, lang i18n.Lang, card SavedCard, res CardSetupResult) (Registered, error) {
	switch res.Status {
	case VerifySucceeded:
		if res.Token != "" {
			// the gateway may keep the card under an id of its own
			card.Token = res.Token
		}
		if err := c.store.AddCard(ctx, card); err != nil {
			return Registered{}, fmt.Errorf("cards: register: %w", err)
		}
		sent := c.mail(ctx, card.MemberID, lang, "card_registered", card)
		return Registered{Creditcard: card.view(c.now(), c.gw.Name()), MailSent: sent}, nil
	case VerifyRequiresAction, VerifyPending:
		return Registered{Creditcard: card.view(c.now(), c.gw.Name()), Status: VerifyRequiresAction,
			SetupID: res.SetupID, NextAction: res.NextAction}, nil
	}
	errs := validate.Errors{}
	errs.Add("token", refusalKey(res.FailureCode))
	return Registered{}, apperr.FromFields(errs)
}

// ErrSetupPending is a card check whose member step is not done yet.
var ErrSetupPending = apperr.New(apperr.Conflict, "payment.card.setup_pending")

// CompleteSetup saves the card of a check that needed the member, once
// the member is back: the check as the gateway reports it decides (saved,
// refused with the reason, or 409 while still pending). Another member's
// check is a 404; a card saved already answers as saved.
func (c *Cards) CompleteSetup(ctx context.Context, memberID string, lang i18n.Lang, setupID string) (Registered, error) {
	setup, ok := c.gw.(CardSetup)
	if !ok || setupID == "" || len(setupID) > 100 {
		return Registered{}, apperr.ErrNotFound
	}
	res, err := setup.CardSetupStatus(ctx, setupID)
	if errors.Is(err, ErrUnknownToken) || (err == nil && res.MemberID != memberID) {
		return Registered{}, apperr.ErrNotFound
	}
	if err != nil {
		return Registered{}, fmt.Errorf("cards: complete setup: %w", err)
	}
	if existing, err := c.store.Card(ctx, c.gw.Name(), res.Token); err == nil {
		if existing.MemberID != memberID {
			return Registered{}, apperr.ErrNotFound
		}
		return Registered{Creditcard: existing.view(c.now(), c.gw.Name())}, nil
	}
	if res.Status == VerifyRequiresAction || res.Status == VerifyPending {
		return Registered{}, ErrSetupPending
	}
	if res.Status != VerifySucceeded {
		return c.afterSetup(ctx, lang, SavedCard{}, res)
	}
	tok, err := c.gw.Token(ctx, res.Token)
	if err != nil {
		return Registered{}, fmt.Errorf("cards: complete setup: %w", err)
	}
	card := SavedCard{
		MemberID: memberID, Gateway: c.gw.Name(), Token: res.Token, Brand: tok.Brand, Last4: tok.Last4,
		ExpirationDate: tok.ExpirationDate, HolderName: tok.HolderName, Currency: res.Scope, CreatedAt: c.now(),
	}
	cs, err := c.store.Cards(ctx, memberID)
	if err != nil {
		return Registered{}, fmt.Errorf("cards: complete setup: %w", err)
	}
	if dup, found := SameCard(cs, card); found {
		if dup.Gateway == card.Gateway && dup.Token == card.Token {
			// saved meanwhile by the check's webhook (SetupSucceeded)
			return Registered{Creditcard: dup.view(c.now(), c.gw.Name())}, nil
		}
		errs := validate.Errors{}
		errs.Add("token", "payment.card.duplicate", "brand", brandLabel(dup.Brand), "last4", dup.Last4)
		return Registered{}, apperr.FromFields(errs)
	}
	return c.afterSetup(ctx, lang, card, res)
}

// SetupSucceeded saves the card of a check that succeeded at the gateway
// (its webhook), for a member who never came back to complete it; a card
// saved already, or a check not succeeded, changes nothing.
func (c *Cards) SetupSucceeded(ctx context.Context, setupID string) error {
	setup, ok := c.gw.(CardSetup)
	if !ok {
		return nil
	}
	res, err := setup.CardSetupStatus(ctx, setupID)
	if errors.Is(err, ErrUnknownToken) || (err == nil && (res.Status != VerifySucceeded || res.MemberID == "")) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cards: setup event: %w", err)
	}
	_, err = c.CompleteSetup(ctx, res.MemberID, i18n.Default, setupID)
	if apperr.As(err) != nil {
		return nil // refused (a duplicate, too many cards): nothing to save
	}
	return err
}

// verifyRefusal asks the issuer about a card before it is saved (a
// zero-amount authorisation; the key is the token's, so a repeat asks once)
// and returns the message key of a refusal ("" when the card may be saved).
func verifyRefusal(ctx context.Context, gw Gateway, gateway, token string) (string, error) {
	v, err := gw.VerifyCard(ctx, "cv_"+gateway+"_"+token, token)
	if errors.Is(err, ErrUnknownToken) {
		return "payment.card.token_unknown", nil
	}
	if err != nil {
		return "", err
	}
	if v.Status == VerifySucceeded {
		return "", nil
	}
	return refusalKey(v.FailureCode), nil
}

// refusalKey is the member's message for a card check the issuer refused.
func refusalKey(code string) string {
	switch code {
	case "card_declined":
		return "payment.card.declined"
	case "expired_card":
		return "payment.card.expired_at_issuer"
	}
	return "payment.card.not_verified"
}

// Delete forgets a member's card at the gateway and here; it reports
// whether the confirmation mail was sent (200) or not (204).
func (c *Cards) Delete(ctx context.Context, memberID string, lang i18n.Lang, token, gateway string) (bool, error) {
	// A card is named by its token and the gateway that holds it: both
	// are required, as every other missing field is a 400 that names it.
	if errs := (validate.Errors{}); !errs.Required("gateway", gateway) {
		return false, apperr.FromFields(errs)
	}
	card, err := c.store.Card(ctx, gateway, token)
	if errors.Is(err, ErrNotFound) || (err == nil && card.MemberID != memberID) {
		return false, apperr.ErrNotFound
	}
	if err != nil {
		return false, fmt.Errorf("cards: delete: %w", err)
	}
	if err := c.gw.DeleteToken(ctx, token); err != nil {
		return false, fmt.Errorf("cards: delete at gateway: %w", err)
	}
	if err := c.store.DeleteCard(ctx, memberID, gateway, token); err != nil && !errors.Is(err, ErrNotFound) {
		return false, fmt.Errorf("cards: delete: %w", err)
	}
	return c.mail(ctx, memberID, lang, "card_deleted", card), nil
}

// mail sends a card mail; false when it could not be sent.
func (c *Cards) mail(ctx context.Context, memberID string, lang i18n.Lang, kind string, card SavedCard) bool {
	to, given, family, chosen, err := c.store.Contact(ctx, memberID)
	if err != nil {
		c.log.Warn("cards: mail contact", "err", err)
		return false
	}
	lang = notify.MailLang(chosen, lang)
	msg, err := c.templates.Standard(kind, lang, to, mail.Data{
		Given: given, Family: family, Args: []any{"brand", brandLabel(card.Brand), "last4", card.Last4},
	})
	if err != nil {
		c.log.Error("cards: render mail", "kind", kind, "err", err)
		return false
	}
	if err := c.mailer.Send(ctx, msg); err != nil {
		c.log.Warn("cards: mail not sent", "kind", kind, "err", err)
		return false
	}
	return true
}

// ForgetAll deletes every saved card of the member at the gateway and
// here, without the per-card mails (account deletion, which sends its own).
// A card the gateway no longer knows counts as deleted there.
func (c *Cards) ForgetAll(ctx context.Context, memberID string) error {
	cs, err := c.store.Cards(ctx, memberID)
	if err != nil {
		return fmt.Errorf("cards: forget: %w", err)
	}
	for _, card := range cs {
		if err := c.gw.DeleteToken(ctx, card.Token); err != nil && !errors.Is(err, ErrNotFound) {
			return fmt.Errorf("cards: forget at gateway: %w", err)
		}
		if err := c.store.DeleteCard(ctx, memberID, card.Gateway, card.Token); err != nil && !errors.Is(err, ErrNotFound) {
			return fmt.Errorf("cards: forget: %w", err)
		}
	}
	return nil
}
