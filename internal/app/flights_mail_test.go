package app

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"members/internal/booking"
	"members/internal/flightops"
	"members/internal/i18n"
	"members/internal/mail"
	"members/internal/mail/mailtest"
	"members/internal/notify"
)

// The flight change mail in every language: the terminal and the gate
// each on a line named as its value (never "Gate / terminal: 2 / 71"),
// no gate on a cancelled flight, and a delay folded with a gate change
// named in the subject and the lead, the delay first.
func TestFlightChangeMailNamesTerminalGateAndFoldedChanges(t *testing.T) {
	cat, tpl := mailtest.Templates(t)
	box := &memOutbox{}
	now := func() time.Time { return time.Date(2026, 11, 20, 3, 0, 0, 0, time.UTC) }
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	mailer := mail.New(box, nil, "noreply@example.com", now, logger)
	settings, err := notify.NewService(nil, [][]byte{[]byte("0123456789abcdef0123456789abcdef")}, "https://members.example", now, logger)
	if err != nil {
		t.Fatal(err)
	}
	fm := &flightMailer{cat: cat, tpl: tpl, mailer: mailer, publicURL: "https://members.example", settings: settings}
	dep := time.Date(2026, 12, 24, 1, 30, 0, 0, time.UTC)
	est := dep.Add(90 * time.Minute)
	at := time.Date(2026, 12, 23, 22, 0, 0, 0, time.UTC)
	base := flightops.State{Flight: "MM801", Date: "2026-12-24", Origin: "KIX", Destination: "BKK", OriginalDepartAt: dep, DepartAt: dep,
		ArrivalAt: dep.Add(7 * time.Hour), Gate: "71", Terminal: "2", FlightStatus: booking.FlightOnTime}
	delayed := base
	delayed.EstimatedDepartAt, delayed.FlightStatus, delayed.TimesAt = &est, booking.FlightNotYetDepartedWithDelay, at
	folded := delayed
	folded.LastKind, folded.GateAt = flightops.KindGate, at.Add(4*time.Minute)
	laterGate := delayed
	laterGate.LastKind, laterGate.GateAt = flightops.KindGate, at.Add(3*time.Hour)
	delayOnly := delayed
	delayOnly.LastKind = flightops.KindDelay
	cancelled := base
	cancelled.FlightStatus, cancelled.LastKind, cancelled.TimesAt = booking.FlightCancelled, flightops.KindCancellation, at

	send := func(t *testing.T, lang i18n.Lang, st flightops.State) mail.Message {
		t.Helper()
		err := fm.SendFlightChange(context.Background(), flightops.ChangeMail{MemberID: "m1",
			To: flightops.Recipient{Email: "h@example.com", Firstname: "Hanako", Lastname: "Yamada", Lang: string(lang), PNRs: []string{"QX7PDF"}}, State: st})
		if err != nil {
			t.Fatal(err)
		}
		return box.last(t)
	}
	for _, lang := range i18n.Langs {
		tr := func(key string) string { return cat.T(lang, key) }
		t.Run(string(lang), func(t *testing.T) {
			m := send(t, lang, folded)
			for _, line := range []string{tr("booking.pdf.terminal") + ": 2", tr("booking.pdf.gate") + ": 71"} {
				if !strings.Contains(m.Text, line) {
					t.Errorf("no line %q:\n%s", line, m.Text)
				}
			}
			if strings.Contains(m.Text, "2 / 71") || strings.Contains(m.Text, "71 / 2") {
				t.Errorf("terminal and gate in one value:\n%s", m.Text)
			}
			both := tr("mail.flight_change.what.delay_gate")
			if !strings.Contains(m.Subject, both) || !strings.Contains(m.Text, strings.SplitN(cat.T(lang, "mail.flight_change.lead.delay_gate"), "{", 2)[0]) {
				t.Errorf("a delay folded with a gate change: subject %q does not name both (%q):\n%s", m.Subject, both, m.Text)
			}
			if d, g := strings.Index(both, tr("mail.flight_change.what.delay")), strings.Index(both, strings.Fields(tr("mail.flight_change.what.gate"))[0]); d < 0 || d > g && g >= 0 {
				t.Errorf("%q: the delay is not named first", both)
			}
			if m := send(t, lang, laterGate); !strings.Contains(m.Subject, tr("mail.flight_change.what.gate")) || strings.Contains(m.Subject, both) {
				t.Errorf("a gate change hours after a delay: subject %q", m.Subject)
			}
			if m := send(t, lang, delayOnly); strings.Contains(m.Subject, both) {
				t.Errorf("a delay alone: subject %q names a gate change", m.Subject)
			}
			m = send(t, lang, cancelled)
			if !strings.Contains(m.Subject, tr("mail.flight_change.what.cancellation")) {
				t.Errorf("cancelled: subject %q", m.Subject)
			}
			if strings.Contains(m.Text, tr("booking.pdf.gate")+":") || strings.Contains(m.Text, ": 71") {
				t.Errorf("a cancelled flight's mail names a gate:\n%s", m.Text)
			}
		})
	}
}
