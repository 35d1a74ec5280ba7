package payment

import (
	"time"

	"members/internal/mail"
)

// Config tunes the engine.
type Config struct {
	// ReturnBase prefixes the return URL the gateway sends the member back
	// to (the site's public URL; empty keeps it relative to the gateway's
	// origin, right when the gateway is mounted in the same server).
	ReturnBase string
	// OpenFor is how long an unpaid process stays open (30 minutes).
	OpenFor time.Duration
	// Lease is how long a worker or a request owns a process.
	Lease time.Duration
	// Poll is how often an open process waiting for the member's step is
	// checked at the gateway when no webhook came.
	Poll time.Duration
	// Retry is the wait before reconciling a call whose outcome is unknown.
	Retry time.Duration
	// WebhookSecret signs the gateway's webhooks. PreviousWebhookSecrets
	// still verify during a change of secret (the gateway signs with the
	// new one as soon as it has it).
	WebhookSecret          []byte
	PreviousWebhookSecrets [][]byte
	// WebhookTolerance is how far a webhook's timestamp may be off.
	WebhookTolerance time.Duration
	// ReconcileEvery is how often the reconciliation job runs (one hour),
	// over the processes changed in the last ReconcileWindow (two days);
	// ReconcileLease bounds one run's hold of the job (ten minutes).
	ReconcileEvery  time.Duration
	ReconcileWindow time.Duration
	ReconcileLease  time.Duration
	// SecretShownFor is how long after the mail that holds it was stored a
	// process's secret (a voucher PIN) stays for the page to show once (10
	// minutes); SecretRetention erases it at the latest that long after the
	// settlement, mailed or not (the mail retention, 30 days).
	SecretShownFor  time.Duration
	SecretRetention time.Duration
	// Mailer and MailTemplates send the slip of a convenience-store / ATM
	// / net-banking payment to the member when the gateway issues it (nil:
	// no mail).
	Mailer        Mailer
	MailTemplates *mail.Templates
}

func (c *Config) defaults() {
	for _, d := range []struct {
		field *time.Duration
		value time.Duration
	}{
		{&c.OpenFor, 30 * time.Minute},
		{&c.Lease, time.Minute},
		{&c.Poll, 30 * time.Second},
		{&c.Retry, 3 * time.Second},
		{&c.WebhookTolerance, 5 * time.Minute},
		{&c.ReconcileEvery, time.Hour},
		{&c.ReconcileWindow, 48 * time.Hour},
		{&c.ReconcileLease, 10 * time.Minute},
		{&c.SecretShownFor, 10 * time.Minute},
		{&c.SecretRetention, 30 * 24 * time.Hour},
	} {
		if *d.field == 0 {
			*d.field = d.value
		}
	}
}
