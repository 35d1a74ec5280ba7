package ops

import (
	"context"
	"database/sql"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics are the instance's Prometheus metrics (docs/operations.md). A
// nil *Metrics records nothing, so the wiring calls it unconditionally.
type Metrics struct {
	requests      *prometheus.CounterVec
	duration      *prometheus.HistogramVec
	transitions   *prometheus.CounterVec
	discrepancies prometheus.Counter
	webhooks      *prometheus.CounterVec
	mailFailures  *prometheus.CounterVec
	mailGivenUp   prometheus.Counter
	logins        *prometheus.CounterVec
	flightEvents  *prometheus.CounterVec
	pushSent      prometheus.Counter
	pushFailed    *prometheus.CounterVec
	pushExpired   prometheus.Counter
}

// Snapshot is what a scrape reads from the database: the state of the
// whole cluster (every instance reports the same figures; take the max).
type Snapshot interface {
	// OpenPayments counts the prepared and pending processes and returns
	// when the oldest pending one last changed (zero when none).
	OpenPayments(ctx context.Context) (prepared, pending int64, oldestPending time.Time, err error)
	// Outbox counts the mails waiting for an SMTP attempt and those given
	// up on.
	Outbox(ctx context.Context) (pending, failed int64, err error)
	// Discrepancies counts the recorded differences between the gateway's
	// word and the processes (reconciliation, webhooks).
	Discrepancies(ctx context.Context) (int64, error)
}

// Pool names a database/sql pool for the pool metrics.
type Pool struct {
	Name string
	DB   *sql.DB
}

// NewMetrics registers the metrics on reg: the process and Go runtime,
// each database pool (connections in use, waits), the counters the
// instance records, and the database snapshot read at each scrape.
func NewMetrics(reg *prometheus.Registry, pools []Pool, snap Snapshot, now func() time.Time) *Metrics {
	m := &Metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "members_http_requests_total", Help: "HTTP requests answered, by route pattern, method and status code.",
		}, []string{"route", "method", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "members_http_request_duration_seconds", Help: "Time to answer an HTTP request, by route pattern and method.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"route", "method"}),
		transitions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "members_payment_transitions_total", Help: "Payment process state changes made by this instance, by from and to state.",
		}, []string{"from", "to"}),
		discrepancies: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "members_payment_discrepancies_recorded_total", Help: "Differences between the gateway's word and a process recorded by this instance.",
		}),
		webhooks: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "members_payment_webhooks_total", Help: "Gateway webhooks received, by result: accepted (2xx) or refused.",
		}, []string{"result"}),
		mailFailures: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "members_mail_failures_total", Help: "Failed SMTP attempts, by outcome: retry (tried again later) or failed (given up).",
		}, []string{"outcome"}),
		mailGivenUp: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "members_mail_given_up_total", Help: "Mails whose last SMTP attempt failed: never sent unless `members mail resend` sends them again.",
		}),
		logins: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "members_login_refusals_total", Help: "Refused logins, by reason: failed (wrong credentials) or throttled.",
		}, []string{"reason"}),
		flightEvents: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "members_flight_events_total", Help: "Flight events from the operations feed, by result: applied, duplicate, unknown_flight or error.",
		}, []string{"result"}),
		pushSent: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "members_push_sent_total", Help: "Flight change alerts a push service accepted for a device (Web Push).",
		}),
		pushFailed: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "members_push_failed_total", Help: "Failed push attempts, by outcome: retry (tried again later) or failed (given up).",
		}, []string{"outcome"}),
		pushExpired: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "members_push_expired_total", Help: "Devices forgotten because their push service answered 404 or 410 (unsubscribed, browser data cleared).",
		}),
	}
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		m.requests, m.duration, m.transitions, m.discrepancies, m.webhooks, m.mailFailures, m.mailGivenUp, m.logins, m.flightEvents,
		m.pushSent, m.pushFailed, m.pushExpired)
	for _, p := range pools {
		reg.MustRegister(collectors.NewDBStatsCollector(p.DB, p.Name))
	}
	if snap != nil {
		reg.MustRegister(&snapshotCollector{snap: snap, now: now})
	}
	// the labels exist before their first event, so rate() and alerts see 0
	for _, r := range []string{"accepted", "refused"} {
		m.webhooks.WithLabelValues(r)
	}
	for _, o := range []string{"retry", "failed"} {
		m.mailFailures.WithLabelValues(o)
	}
	for _, r := range []string{"failed", "throttled"} {
		m.logins.WithLabelValues(r)
	}
	for _, r := range []string{"applied", "duplicate", "unknown_flight", "error"} {
		m.flightEvents.WithLabelValues(r)
	}
	for _, o := range []string{"retry", "failed"} {
		m.pushFailed.WithLabelValues(o)
	}
	return m
}

// RegisterWriteFailures adds members_database_write_failures_total, the
// writes this instance's database refused for lack of space (a full disk),
// read from count at each scrape.
func RegisterWriteFailures(reg prometheus.Registerer, count func() int64) {
	reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name: "members_database_write_failures_total",
		Help: "Writes the database refused for lack of space (disk full, I/O error) on this instance.",
	}, func() float64 { return float64(count()) }))
}

// Handler serves the metrics of reg in Prometheus's text format.
func Handler(reg prometheus.Gatherer) http.Handler {
	return promhttp.HandlerFor(reg, promhttp.HandlerOpts{})
}

// Routes whose answers are counted as logins and webhooks besides the
// request metrics.
const (
	LoginRoute   = "POST /api/session"
	WebhookRoute = "POST /webhooks/gateway"
)

// ObserveRequest records one answered request; route is the pattern that
// served it ("" when none matched).
func (m *Metrics) ObserveRequest(route, method string, code int, d time.Duration) {
	if m == nil {
		return
	}
	if route == "" {
		route = "unmatched"
	}
	m.requests.WithLabelValues(route, method, strconv.Itoa(code)).Inc()
	m.duration.WithLabelValues(route, method).Observe(d.Seconds())
	switch route {
	case LoginRoute:
		switch code {
		case http.StatusUnauthorized:
			m.logins.WithLabelValues("failed").Inc()
		case http.StatusTooManyRequests:
			m.logins.WithLabelValues("throttled").Inc()
		}
	case WebhookRoute:
		if code >= 200 && code < 300 {
			m.webhooks.WithLabelValues("accepted").Inc()
		} else {
			m.webhooks.WithLabelValues("refused").Inc()
		}
	}
}

// PaymentTransition records a process moved from one state to another.
func (m *Metrics) PaymentTransition(from, to string) {
	if m != nil {
		m.transitions.WithLabelValues(from, to).Inc()
	}
}

// PaymentDiscrepancy records a difference found with the gateway.
func (m *Metrics) PaymentDiscrepancy() {
	if m != nil {
		m.discrepancies.Inc()
	}
}

// MailFailure records a failed SMTP attempt; final when given up.
func (m *Metrics) MailFailure(final bool) {
	if m == nil {
		return
	}
	if final {
		m.mailFailures.WithLabelValues("failed").Inc()
		m.mailGivenUp.Inc()
		return
	}
	m.mailFailures.WithLabelValues("retry").Inc()
}

// FlightEvent records one event of the operations feed by result.
func (m *Metrics) FlightEvent(result string) {
	if m != nil {
		m.flightEvents.WithLabelValues(result).Inc()
	}
}

// PushSent records a push a push service accepted.
func (m *Metrics) PushSent() {
	if m != nil {
		m.pushSent.Inc()
	}
}

// PushFailed records a failed push attempt; final when given up.
func (m *Metrics) PushFailed(final bool) {
	if m == nil {
		return
	}
	if final {
		m.pushFailed.WithLabelValues("failed").Inc()
		return
	}
	m.pushFailed.WithLabelValues("retry").Inc()
}

// PushExpired records a device forgotten on its push service's 404 or 410.
func (m *Metrics) PushExpired() {
	if m != nil {
		m.pushExpired.Inc()
	}
}

// snapshotCollector reads the database's figures at each scrape.
type snapshotCollector struct {
	snap Snapshot
	now  func() time.Time
}

var (
	descPayments = prometheus.NewDesc("members_payment_processes_open", "Payment processes not yet concluded, by state (whole cluster).", []string{"state"}, nil)
	descOldest   = prometheus.NewDesc("members_payment_oldest_pending_seconds", "Age of the oldest pending payment process since its last change (0: none; whole cluster).", nil, nil)
	descOutbox   = prometheus.NewDesc("members_mail_outbox", "Mails in the outbox, by status: pending (waiting for an SMTP attempt) or failed (given up; whole cluster).", []string{"status"}, nil)
	descDiffs    = prometheus.NewDesc("members_payment_discrepancies", "Differences between the gateway's word and a process ever recorded (whole cluster).", nil, nil)
	descUp       = prometheus.NewDesc("members_database_snapshot_ok", "1 when the scrape could read the database figures above, else 0.", nil, nil)
)

func (c *snapshotCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descPayments, descOldest, descOutbox, descDiffs, descUp} {
		ch <- d
	}
}

func (c *snapshotCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	ok := 1.0
	if prepared, pending, oldest, err := c.snap.OpenPayments(ctx); err == nil {
		ch <- prometheus.MustNewConstMetric(descPayments, prometheus.GaugeValue, float64(prepared), "prepared")
		ch <- prometheus.MustNewConstMetric(descPayments, prometheus.GaugeValue, float64(pending), "pending")
		age := 0.0
		if !oldest.IsZero() {
			age = max(c.now().Sub(oldest).Seconds(), 0)
		}
		ch <- prometheus.MustNewConstMetric(descOldest, prometheus.GaugeValue, age)
	} else {
		ok = 0
	}
	if pending, failed, err := c.snap.Outbox(ctx); err == nil {
		ch <- prometheus.MustNewConstMetric(descOutbox, prometheus.GaugeValue, float64(pending), "pending")
		ch <- prometheus.MustNewConstMetric(descOutbox, prometheus.GaugeValue, float64(failed), "failed")
	} else {
		ok = 0
	}
	if n, err := c.snap.Discrepancies(ctx); err == nil {
		ch <- prometheus.MustNewConstMetric(descDiffs, prometheus.GaugeValue, float64(n))
	} else {
		ok = 0
	}
	ch <- prometheus.MustNewConstMetric(descUp, prometheus.GaugeValue, ok)
}
