package flightops

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"members/internal/notify"
)

// memAlerts is an AlertStore in memory: every alert due, one booking each.
type memAlerts struct {
	mu   sync.Mutex
	owed map[Alert]bool
}

func (m *memAlerts) DueAlerts(_ context.Context, _ time.Time, limit int) ([]Alert, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []Alert
	for a := range m.owed {
		if len(out) == limit {
			break
		}
		out = append(out, a)
	}
	return out, nil
}

func (m *memAlerts) TakeAlert(_ context.Context, a Alert, _ string, _, _ time.Time) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.owed[a], nil
}

func (m *memAlerts) AlertRecipient(_ context.Context, a Alert) (State, Recipient, error) {
	return State{Sequence: 1}, Recipient{Email: a.MemberID + "@example.com", PNRs: []string{"PNR" + a.MemberID}}, nil
}

func (m *memAlerts) AlertSent(_ context.Context, a Alert, _ string, _ int) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.owed, a)
	return nil
}

type countingMailer struct {
	mu   sync.Mutex
	n    int
	all  int
	done chan struct{}
}

func (c *countingMailer) SendFlightChange(context.Context, ChangeMail) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	if c.n == c.all {
		close(c.done)
	}
	return nil
}

type allowAll struct{}

func (allowAll) Allows(context.Context, string, notify.Kind) (bool, error) { return true, nil }

// TestAlertsRunDrainsAtOnce: when a pass finds a full page of due alerts,
// the sender goes on at once rather than a page per interval, so the
// mails of a day of many cancellations are all written in one go.
func TestAlertsRunDrainsAtOnce(t *testing.T) {
	const n = 2*alertsPass + 50
	st := &memAlerts{owed: map[Alert]bool{}}
	for i := range n {
		st.owed[Alert{Flight: "MM101", Date: "2026-12-08", MemberID: fmt.Sprint(i)}] = true
	}
	m := &countingMailer{all: n, done: make(chan struct{})}
	a := NewAlerts(st, m, allowAll{}, time.Now, slog.New(slog.NewTextHandler(io.Discard, nil)))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ran := make(chan struct{})
	go func() {
		defer close(ran)
		a.Run(ctx, time.Hour, func(err error) { t.Error(err) })
	}()
	select {
	case <-m.done:
	case <-time.After(30 * time.Second):
		m.mu.Lock()
		defer m.mu.Unlock()
		t.Fatalf("%d of %d mails within the first interval, want every one", m.n, n)
	}
	cancel()
	<-ran
	if len(st.owed) != 0 {
		t.Errorf("%d alerts still owed", len(st.owed))
	}
}

// TestAlertsWake: a sender woken after its pass makes the next one at
// once, not at its interval (a cancellation's mails go at once).
func TestAlertsWake(t *testing.T) {
	st := &memAlerts{owed: map[Alert]bool{}}
	m := &countingMailer{all: 1, done: make(chan struct{})}
	a := NewAlerts(st, m, allowAll{}, time.Now, slog.New(slog.NewTextHandler(io.Discard, nil)))
	passes := &countingStore{AlertStore: st, pass: make(chan struct{}, 10)}
	a.store = passes
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ran := make(chan struct{})
	go func() {
		defer close(ran)
		a.Run(ctx, time.Hour, func(err error) { t.Error(err) })
	}()
	<-passes.pass // the first pass found nothing
	st.mu.Lock()
	st.owed[Alert{Flight: "MM101", Date: "2026-12-08", MemberID: "1"}] = true
	st.mu.Unlock()
	a.Wake()
	select {
	case <-m.done:
	case <-time.After(30 * time.Second):
		t.Fatal("the woken sender did not mail the alert due")
	}
	cancel()
	<-ran
}

// countingStore tells of each pass (DueAlerts).
type countingStore struct {
	AlertStore
	pass chan struct{}
}

func (c *countingStore) DueAlerts(ctx context.Context, now time.Time, limit int) ([]Alert, error) {
	out, err := c.AlertStore.DueAlerts(ctx, now, limit)
	c.pass <- struct{}{}
	return out, err
}
