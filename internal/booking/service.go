package booking

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"members/internal/apperr"
	"members/internal/i18n"
	"members/internal/notify"
	"members/internal/ratelimit"
	"members/internal/validate"
)

// MaxPNRLength is the longest booking number.
const MaxPNRLength = 20

// ErrNotFound is what a Store returns for a reservation that does not
// exist, or that is not the member's.
var ErrNotFound = errors.New("booking: reservation not found")

// Store keeps reservations. Implementations: internal/store.BookingStore.
type Store interface {
	// Search returns one page of the member's reservations matching q, in
	// first-departure order, and the number of matches.
	Search(ctx context.Context, q Query) ([]Reservation, int, error)
	// SearchPage is Search with what tells how long the answer holds: the
	// member's bookings version, read before the rows (in the same
	// snapshot where the engine offers one), and, among all matches, the
	// earliest last departure (what ends an ACTIVE match).
	SearchPage(ctx context.Context, q Query) (Page, error)
	// BookingsVersion is the member's bookings version: any change to the
	// member's reservations, their segments or passengers, made by anyone,
	// changes it in the same transaction (-1 for an unknown member).
	BookingsVersion(ctx context.Context, memberID string) (int64, error)
	// ByPNR returns the member's reservation with pnr; ErrNotFound when it
	// does not exist or belongs to nobody or somebody else.
	ByPNR(ctx context.Context, memberID, pnr string) (Reservation, error)
	// FindByPNR returns the reservation with pnr whoever owns it (adding a
	// booking); ErrNotFound when none.
	FindByPNR(ctx context.Context, pnr string) (Reservation, error)
	// Claim makes memberID the owner of a reservation that has none;
	// ErrNotFound when it has an owner already (a concurrent claim).
	Claim(ctx context.Context, reservationID, memberID string) error
	// Contact returns the member's e-mail address and name; ErrNotFound
	// for an unknown member.
	Contact(ctx context.Context, memberID string) (Contact, error)
}

// Contact is where the itinerary mail goes.
type Contact struct {
	Email     string
	Firstname string
	Lastname  string
	// MailLang is the mail language the member chose ("" for none).
	MailLang string
}

// Document kinds.
const (
	DocItinerary    = "itinerary"
	DocReceipt      = "receipt"
	DocBoarding     = "boarding_certificate"
	DocDelay        = "delay_certificate"
	DocCancellation = "cancellation_certificate"
)

// Document is what a Renderer turns into a PDF.
type Document struct {
	Kind        string
	Lang        i18n.Lang
	Reservation Reservation
	Segment     *Segment // certificates only
	Addressee   string   // receipt only
	IssuedAt    time.Time
}

// Renderer makes PDF documents (internal/pdf).
type Renderer interface {
	Render(d Document) ([]byte, error)
}

// ItineraryMail is the itinerary mail with its PDF.
type ItineraryMail struct {
	To   Contact
	Lang i18n.Lang
	PNR  string
	// Summary lines (flight, route, local departure) for the mail body.
	Flights []string
	PDF     []byte
}

// Mailer sends the itinerary mail. It returns nil when the mail was
// accepted (sent or kept in the outbox) and an error when it may not have
// been sent.
type Mailer interface {
	SendItinerary(ctx context.Context, m ItineraryMail) error
}

// Service is the bookings feature.
type Service struct {
	store    Store
	render   Renderer
	mailer   Mailer
	catalog  *i18n.Catalog
	site     BookingSite
	counters ratelimit.Counters
	now      func() time.Time
}

// NewService builds the service. counters keep the throttles of adding a
// booking and of the itinerary mail.
func NewService(s Store, r Renderer, m Mailer, c *i18n.Catalog, site BookingSite, counters ratelimit.Counters, now func() time.Time) *Service {
	return &Service{store: s, render: r, mailer: m, catalog: c, site: site, counters: counters, now: now}
}

// Throttles (docs/security.md). Adding a booking proves ownership with a
// booking number and a last name, which can be guessed: failed attempts
// per member are limited. The itinerary mail goes to the member's address;
// the number per member is limited so the feature cannot flood a mailbox.
const (
	ThrottleWindow       = time.Hour
	MaxAddFailsPerMember = 10
	MaxMailsPerMember    = 10
)

var tooMany = apperr.New(apperr.TooMany, "error.too_many_requests")

// reserve takes one attempt of key (see ratelimit.Window.Reserve).
func (s *Service) reserve(ctx context.Context, key string, limit int) (ratelimit.Window, error) {
	w := ratelimit.Window{Counters: s.counters, Length: ThrottleWindow, Limit: limit, Now: s.now}
	ok, err := w.Reserve(ctx, key)
	if err != nil {
		return w, fmt.Errorf("throttle: %w", err)
	}
	if !ok {
		return w, tooMany
	}
	return w, nil
}

// Page is one page of a search (see Store.SearchPage).
type Page struct {
	List  []Reservation
	Total int
	// Version is the member's bookings version the page was read at.
	Version int64
	// LastDepartMin is the earliest last departure among all matches
	// (zero when there are none).
	LastDepartMin time.Time
}

// SearchResult is the answer of a search.
type SearchResult struct {
	Reservations []ReservationView `json:"reservations"`
	PerPage      int               `json:"perPage"`
	CurrentPage  int               `json:"currentPage"`
	Total        int               `json:"total"`
	TotalPages   int               `json:"totalPages"`
	// Version and ValidUntil say how long the answer holds: while the
	// member's bookings version is still Version and the clock is before
	// ValidUntil, the same search gives the same answer.
	Version    int64     `json:"-"`
	ValidUntil time.Time `json:"-"`
}

// Holds reports whether res is still the answer of its search at now,
// given the member's current bookings version.
func (res SearchResult) Holds(version int64, now time.Time) bool {
	return res.Version >= 0 && version == res.Version && now.Before(res.ValidUntil)
}

// StillHolds reports whether res, an earlier answer of a search of
// memberID, is still what the search would answer now: it reads the
// member's bookings version from the store (one primary-key read) and
// checks the answer's time limit. A kept answer may be served again only
// after this says so on the same request.
// HoldsWith is StillHolds with the member's bookings version already read
// on this request (with the session: auth.Session.BookingsVersion).
func (s *Service) HoldsWith(version int64, res SearchResult) bool {
	return res.Holds(version, s.now())
}

func (s *Service) StillHolds(ctx context.Context, memberID string, res SearchResult) (bool, error) {
	v, err := s.store.BookingsVersion(ctx, memberID)
	if err != nil {
		return false, fmt.Errorf("bookings version: %w", err)
	}
	return res.Holds(v, s.now()), nil
}

// validUntil is the first instant after now at which the answer of q over
// page could change with the bookings unchanged: the search and its view
// read the clock in these places only. A match of an ACTIVE search ends
// at its last departure; a segment becomes past (and flown) at its
// scheduled departure, flown at its actual departure; a booking becomes
// outdated 180 days after its first departure; the booking-date limits
// move with the day in Japan.
func validUntil(q Query, page Page, now time.Time) time.Time {
	y, m, d := now.In(JST).Date()
	until := time.Date(y, m, d+1, 0, 0, 0, 0, JST)
	next := func(t time.Time) {
		if !t.IsZero() && !t.Before(now) && t.Before(until) {
			until = t
		}
	}
	if q.ActiveAt != nil {
		next(page.LastDepartMin)
	}
	for _, r := range page.List {
		if first := r.FirstDepartAt(); !first.IsZero() {
			next(first.Add(OutdatedAfter))
		}
		for _, g := range r.Segments {
			next(g.DepartAt)
			if g.ActualDepartAt != nil {
				next(*g.ActualDepartAt)
			}
			if g.EstimatedDepartAt != nil {
				next(*g.EstimatedDepartAt)
			}
		}
	}
	return until
}

// Search runs the member's booking search. Invalid conditions give an
// apperr.Invalid with one message per field.
func (s *Service) Search(ctx context.Context, memberID string, lang i18n.Lang, in SearchInput) (SearchResult, error) {
	now := s.now()
	q, opts, errs := ParseSearch(memberID, in, now)
	if !errs.Empty() {
		return SearchResult{}, apperr.FromFields(errs)
	}
	page, err := s.store.SearchPage(ctx, q)
	if err != nil {
		return SearchResult{}, fmt.Errorf("search reservations: %w", err)
	}
	total := page.Total
	out := SearchResult{Reservations: make([]ReservationView, 0, len(page.List)), PerPage: opts.PerPage, CurrentPage: opts.Page, Total: total,
		Version: page.Version, ValidUntil: validUntil(q, page, now)}
	out.TotalPages = (total + opts.PerPage - 1) / opts.PerPage
	for _, r := range page.List {
		out.Reservations = append(out.Reservations, View(r, s.catalog, lang, opts.Zone, now, opts.WithFlightStatus))
	}
	return out, nil
}

// notFound is the one answer for a PNR or segment that is missing or not
// the member's: the same 404 whoever owns it.
var notFound = apperr.New(apperr.NotFound, "booking.not_found")

// get returns the member's reservation or the 404 error.
func (s *Service) get(ctx context.Context, memberID, pnr string) (Reservation, error) {
	pnr = strings.ToUpper(strings.TrimSpace(pnr))
	if !validate.IsAlnum(pnr) || len(pnr) > MaxPNRLength {
		return Reservation{}, notFound
	}
	r, err := s.store.ByPNR(ctx, memberID, pnr)
	if errors.Is(err, ErrNotFound) {
		return r, notFound
	}
	if err != nil {
		return r, fmt.Errorf("reservation: %w", err)
	}
	return r, nil
}

// Get returns one of the member's reservations with flight status.
func (s *Service) Get(ctx context.Context, memberID, pnr string, lang i18n.Lang) (ReservationView, error) {
	r, err := s.get(ctx, memberID, pnr)
	if err != nil {
		return ReservationView{}, err
	}
	return View(r, s.catalog, lang, JST, s.now(), true), nil
}

// segment returns the member's reservation and one of its segments.
func (s *Service) segment(ctx context.Context, memberID, pnr, key string) (Reservation, Segment, error) {
	r, err := s.get(ctx, memberID, pnr)
	if err != nil {
		return r, Segment{}, err
	}
	seg, ok := r.Segment(key)
	if !ok {
		return r, seg, notFound
	}
	return r, seg, nil
}

// Segment returns one segment of the member's reservation, with flight status.
func (s *Service) Segment(ctx context.Context, memberID, pnr, key string, lang i18n.Lang) (SegmentView, error) {
	_, seg, err := s.segment(ctx, memberID, pnr, key)
	if err != nil {
		return SegmentView{}, err
	}
	return ViewSegment(seg, s.catalog, lang, s.now(), true), nil
}

// AddInput is the add-a-booking form: the booking number and a
// passenger's last name as proof.
type AddInput struct {
	PNR      string `json:"pnr"`
	Lastname string `json:"lastname"`
}

// Add links a reservation to the member's account. A PNR that does not
// exist, whose passengers do not include lastname, or that another member
// has already added, all get the same answer, so nothing is revealed about
// whose booking it is.
func (s *Service) Add(ctx context.Context, memberID string, lang i18n.Lang, in AddInput) (ReservationView, error) {
	errs := validate.Errors{}
	pnr := strings.ToUpper(strings.TrimSpace(in.PNR))
	if errs.Required("pnr", pnr) {
		errs.Check("pnr", validate.IsAlnum(pnr), "booking.validation.pnr")
		errs.MaxLen("pnr", pnr, MaxPNRLength)
	}
	if errs.Required("lastname", in.Lastname) {
		errs.MaxLen("lastname", in.Lastname, 100)
	}
	if !errs.Empty() {
		return ReservationView{}, apperr.FromFields(errs)
	}
	// The attempt is reserved before the lookup (parallel guesses cannot
	// pass the limit); one that adds the booking is given back.
	key := "booking-add:" + memberID
	win, err := s.reserve(ctx, key, MaxAddFailsPerMember)
	if err != nil {
		return ReservationView{}, err
	}
	noMatch := apperr.New(apperr.NotFound, "booking.add_not_found")
	r, err := s.store.FindByPNR(ctx, pnr)
	if errors.Is(err, ErrNotFound) {
		return ReservationView{}, noMatch
	}
	if err != nil {
		return ReservationView{}, fmt.Errorf("find reservation: %w", err)
	}
	if !r.HasLastname(in.Lastname) {
		return ReservationView{}, noMatch
	}
	switch r.MemberID {
	case memberID:
		return ReservationView{}, apperr.New(apperr.Conflict, "booking.already_added")
	case "":
	default:
		return ReservationView{}, noMatch
	}
	if err := s.store.Claim(ctx, r.ID, memberID); errors.Is(err, ErrNotFound) {
		return ReservationView{}, noMatch
	} else if err != nil {
		return ReservationView{}, fmt.Errorf("claim reservation: %w", err)
	}
	if err := win.Release(ctx, key); err != nil {
		return ReservationView{}, fmt.Errorf("throttle: %w", err)
	}
	r.MemberID = memberID
	return View(r, s.catalog, lang, JST, s.now(), false), nil
}

// Itinerary returns the itinerary PDF of the member's reservation.
func (s *Service) Itinerary(ctx context.Context, memberID, pnr string, lang i18n.Lang) ([]byte, error) {
	r, err := s.get(ctx, memberID, pnr)
	if err != nil {
		return nil, err
	}
	return s.renderDoc(Document{Kind: DocItinerary, Lang: lang, Reservation: r, IssuedAt: s.now()})
}

// ForbiddenAddresseeChars may not appear in a receipt's addressee.
const ForbiddenAddresseeChars = `&#<>'"[]`

// Receipt returns the receipt PDF made out to addressee (empty: the first
// passenger's name).
func (s *Service) Receipt(ctx context.Context, memberID, pnr, addressee string, lang i18n.Lang) ([]byte, error) {
	addressee = strings.TrimSpace(addressee)
	errs := validate.Errors{}
	errs.Check("addressee", !strings.ContainsAny(addressee, ForbiddenAddresseeChars), "booking.validation.addressee")
	errs.MaxLen("addressee", addressee, 100)
	errs.Check("addressee", !validate.HasFourByteChars(addressee), "booking.validation.addressee")
	if !errs.Empty() {
		return nil, apperr.FromFields(errs)
	}
	r, err := s.get(ctx, memberID, pnr)
	if err != nil {
		return nil, err
	}
	if addressee == "" && len(r.Passengers) > 0 {
		addressee = r.Passengers[0].Lastname + " " + r.Passengers[0].Firstname
	}
	return s.renderDoc(Document{Kind: DocReceipt, Lang: lang, Reservation: r, Addressee: addressee, IssuedAt: s.now()})
}

// Certificate returns a boarding, delay or cancellation certificate of a
// segment; one that does not apply to the segment is a 404 with its own
// message.
func (s *Service) Certificate(ctx context.Context, memberID, pnr, key, kind string, lang i18n.Lang) ([]byte, error) {
	r, seg, err := s.segment(ctx, memberID, pnr, key)
	if err != nil {
		return nil, err
	}
	want := map[string]string{DocBoarding: CertBoarding, DocDelay: CertDelay, DocCancellation: CertCancellation}[kind]
	applies := false
	for _, c := range seg.Certificates(s.now()) {
		applies = applies || c == want
	}
	if !applies {
		return nil, apperr.New(apperr.NotFound, "booking.certificate_not_available")
	}
	return s.renderDoc(Document{Kind: kind, Lang: lang, Reservation: r, Segment: &seg, IssuedAt: s.now()})
}

func (s *Service) renderDoc(d Document) ([]byte, error) {
	b, err := s.render.Render(d)
	if err != nil {
		return nil, fmt.Errorf("render %s: %w", d.Kind, err)
	}
	return b, nil
}

// MailResult says whether the itinerary mail went out (false: it may not
// have been sent; the answer then carries errorKey mobile_mail_error).
type MailResult struct {
	MailSent bool `json:"mailSent"`
}

// SendItinerary mails the itinerary with its PDF to the member's address.
func (s *Service) SendItinerary(ctx context.Context, memberID, pnr string, lang i18n.Lang) (MailResult, error) {
	r, err := s.get(ctx, memberID, pnr)
	if err != nil {
		return MailResult{}, err
	}
	if _, err := s.reserve(ctx, "itinerary-mail:"+memberID, MaxMailsPerMember); err != nil {
		return MailResult{}, err
	}
	contact, err := s.store.Contact(ctx, memberID)
	if err != nil {
		return MailResult{}, fmt.Errorf("member contact: %w", err)
	}
	// The mail and its itinerary speak the member's mail language, else the page's.
	lang = notify.MailLang(contact.MailLang, lang)
	pdf, err := s.renderDoc(Document{Kind: DocItinerary, Lang: lang, Reservation: r, IssuedAt: s.now()})
	if err != nil {
		return MailResult{}, err
	}
	m := ItineraryMail{To: contact, Lang: lang, PNR: r.PNR, PDF: pdf}
	for _, seg := range r.Segments {
		dep := seg.DepartAt.In(AirportZone(seg.OriginAirportCode))
		line := fmt.Sprintf("%s %s-%s %s %s", seg.Flight, seg.OriginAirportCode, seg.DestinationAirportCode,
			i18n.FormatDate(lang, dep, false), dep.Format("15:04"))
		// A delay: the new date and times first (a delay past midnight on its
		// new date, not the old one with "+1"), the schedule beside them,
		// with its own date when that was another day.
		if nd, na, late := seg.ShownTimes(); late {
			old := seg.Clock(seg.DepartAt, seg.OriginAirportCode) + " → " + seg.Clock(seg.ArrivalAt, seg.DestinationAirportCode)
			if seg.DayShift(nd, seg.OriginAirportCode) != 0 {
				old = i18n.FormatDate(lang, dep, false) + " " + old
			}
			line = fmt.Sprintf("%s %s-%s %s %s", seg.Flight, seg.OriginAirportCode, seg.DestinationAirportCode,
				i18n.FormatDate(lang, seg.ShownDate(), false), s.catalog.T(lang, "booking.itinerary.delayed",
					"status", s.catalog.T(lang, "booking.flight_status."+strings.ToLower(seg.FlightStatus)),
					"new", seg.ShownClock(nd, seg.OriginAirportCode)+" → "+seg.ShownClock(na, seg.DestinationAirportCode),
					"old", old))
		}
		if seg.IsCancelled() {
			line += " (" + s.catalog.T(lang, "booking.status.cancelled") + ")"
		}
		m.Flights = append(m.Flights, line)
	}
	if err := s.mailer.SendItinerary(ctx, m); err != nil {
		return MailResult{MailSent: false}, nil
	}
	return MailResult{MailSent: true}, nil
}

// HandoverResult is where the browser goes to change a booking on the
// booking site (or search there); the booking site signs the member in
// with OpenID Connect.
type HandoverResult struct {
	URL string `json:"url"`
}

// Edit sends the member to the booking site to change their reservation.
// Another member's or an unknown booking is NotFound; outdated bookings
// cannot be changed.
func (s *Service) Edit(ctx context.Context, memberID, pnr string, lang i18n.Lang) (HandoverResult, error) {
	r, err := s.get(ctx, memberID, pnr)
	if err != nil {
		return HandoverResult{}, err
	}
	if r.IsOutdated(s.now()) {
		return HandoverResult{}, apperr.New(apperr.Conflict, "booking.outdated")
	}
	return HandoverResult{URL: s.site.URL(r.PNR, lang)}, nil
}

// SSO sends the member to the booking site, optionally for one of their
// reservations (pnr empty: the booking site's own booking search).
func (s *Service) SSO(ctx context.Context, memberID, pnr string, lang i18n.Lang) (HandoverResult, error) {
	if strings.TrimSpace(pnr) != "" {
		return s.Edit(ctx, memberID, pnr, lang)
	}
	return HandoverResult{URL: s.site.URL("", lang)}, nil
}

// Offers returns hotel or rental-car offers at a segment's destination.
func (s *Service) Offers(ctx context.Context, memberID, pnr, key, kind string, lang i18n.Lang) (OfferList, error) {
	_, seg, err := s.segment(ctx, memberID, pnr, key)
	if err != nil {
		return OfferList{}, err
	}
	return OffersFor(kind, seg, lang), nil
}
