package points

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// SendReminders makes one pass of the expiry reminder: for each owned
// voucher with a balance that expires within the largest threshold, the
// tightest threshold it has reached is claimed in the database and, if
// this instance won the claim, the mail is sent in the member's language.
// Larger thresholds are claimed with it, so a voucher found late gets one
// mail, not one per threshold. It returns the number of mails sent.
func (s *Service) SendReminders(ctx context.Context) (int, error) {
	days := slices.Clone(s.cfg.ReminderDays)
	slices.Sort(days)
	if len(days) == 0 {
		return 0, nil
	}
	now := s.now()
	today, _ := time.ParseInLocation(DateLayout, Today(now), JST)
	targets, err := s.store.ReminderTargets(ctx, today.Format(DateLayout), today.AddDate(0, 0, days[len(days)-1]).Format(DateLayout))
	if err != nil {
		return 0, fmt.Errorf("reminders: %w", err)
	}
	sent := 0
	for _, t := range targets {
		exp, err := time.ParseInLocation(DateLayout, t.Voucher.ExpireDate, JST)
		if err != nil {
			continue
		}
		left := int(exp.Sub(today).Hours() / 24)
		first := true
		mail := false
		for _, d := range days {
			if d < left {
				continue
			}
			ok, err := s.store.ClaimReminder(ctx, t.Voucher.ID, d, now)
			if err != nil {
				return sent, fmt.Errorf("reminders: claim: %w", err)
			}
			if first {
				mail, first = ok, false
			}
		}
		if !mail {
			continue
		}
		if err := s.mailer.SendPoints(ctx, Mail{Kind: "reminder", To: t.Contact, Voucher: t.Voucher, Days: left}); err != nil {
			// The outbox keeps it and the mail worker retries.
			continue
		}
		sent++
	}
	return sent, nil
}

// RunReminders sends due reminders every interval until ctx ends (a
// background job; safe to run on several instances at once).
func (s *Service) RunReminders(ctx context.Context, every time.Duration, onErr func(error)) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if _, err := s.SendReminders(ctx); err != nil && ctx.Err() == nil {
			onErr(err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
