package points

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"members/internal/notify"
)

// logger is the configured logger or slog's default.
func (s *Service) logger() *slog.Logger {
	if s.cfg.Logger != nil {
		return s.cfg.Logger
	}
	return slog.Default()
}

// SendReminders makes one pass of the expiry reminder: for each owned
// voucher with a balance that expires within the largest threshold, the
// tightest threshold it has reached is claimed in the database and, if
// this instance won the claim, the mail is sent in the member's language.
// Larger thresholds are claimed with it, so a voucher found late gets one
// mail, not one per threshold. A member who switched the reminders off is
// not mailed: the threshold stays claimed (a later threshold is decided
// afresh) and a log line says so. It returns the number of mails sent.
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
		if s.cfg.Settings != nil {
			wanted, err := s.cfg.Settings.Allows(ctx, t.Voucher.MemberID, notify.PointsReminders)
			if err != nil {
				return sent, fmt.Errorf("reminders: %w", err)
			}
			if !wanted {
				s.logger().Info("points reminder not mailed: the member switched points reminders off",
					"voucher", t.Voucher.Number, "member", t.Voucher.MemberID, "days", left)
				continue
			}
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
