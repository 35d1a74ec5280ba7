package httpapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"members/internal/api/bookingapi"
	"members/internal/booking"
)

// BookingHandlers implements bookingapi.ServerInterface: the booking
// search, adding a booking, documents, mail, offers and the hand-over to
// the booking site. Every call runs for the session's member; another
// member's PNR or segment is a 404.
type BookingHandlers struct {
	*Server
	svc    *booking.Service
	search *searchCache
}

var _ bookingapi.ServerInterface = (*BookingHandlers)(nil)

// NewBookingHandlers returns the handlers of the booking API.
func NewBookingHandlers(s *Server, svc *booking.Service) *BookingHandlers {
	return &BookingHandlers{Server: s, svc: svc, search: newSearchCache(searchCacheBudget)}
}

func (h *BookingHandlers) SearchReservations(w http.ResponseWriter, r *http.Request, p bookingapi.SearchReservationsParams) {
	in := booking.SearchInput{
		PNR: str(p.Pnr), AirportCode: str(p.AirportCode),
		DepartDateFrom: str(p.DepartDateFrom), DepartDateTo: str(p.DepartDateTo),
		LastDepartDateFrom: str(p.LastDepartDateFrom), LastDepartDateTo: str(p.LastDepartDateTo),
		BookingDateFrom: str(p.BookingDateFrom), BookingDateTo: str(p.BookingDateTo),
		Status: str(p.Status), Order: str(p.Order), TimeZone: str(p.TimeZone), Form: str(p.Form),
	}
	if p.Page != nil {
		in.Page = *p.Page
	}
	if p.PerPage != nil {
		in.PerPage = *p.PerPage
	}
	if p.WithFlightStatus != nil {
		in.WithFlightStatus = *p.WithFlightStatus
	}
	if p.Changed != nil {
		in.Changed = *p.Changed
	}
	memberID, lang := member(r), Lang(r)
	key := memberID + "\x00" + string(lang) + "\x00" + r.URL.RawQuery
	if e, ok := h.search.get(key); ok {
		// The cached answer is served only if it still holds: the member's
		// bookings version, read from the database with this request's
		// session (the same statement: no second read), is the one it was
		// built at (no change on any instance since), and its time limit
		// has not passed.
		sess, _ := SessionFrom(r.Context())
		if h.svc.HoldsWith(sess.BookingsVersion, e.res) {
			writeJSONBytes(w, e.body)
			return
		}
	}
	res, err := h.svc.Search(r.Context(), memberID, lang, in)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	body, err := json.Marshal(res)
	if err != nil {
		h.writeError(w, r, fmt.Errorf("encode search: %w", err))
		return
	}
	body = append(body, '\n')
	h.search.put(&searchEntry{key: key, res: booking.SearchResult{Version: res.Version, ValidUntil: res.ValidUntil}, body: body})
	writeJSONBytes(w, body)
}

// writeJSONBytes writes an encoded JSON answer (200) with WriteJSON's headers.
func writeJSONBytes(w http.ResponseWriter, body []byte) {
	writeJSONBody(w, http.StatusOK, body)
}

func (h *BookingHandlers) GetReservationSearchDefaults(w http.ResponseWriter, r *http.Request) {
	h.WriteJSON(w, http.StatusOK, booking.SearchDefaults(h.Now()))
}

func (h *BookingHandlers) AddReservation(w http.ResponseWriter, r *http.Request) {
	var body bookingapi.AddReservationJSONRequestBody
	if !h.DecodeJSON(w, r, &body) {
		return
	}
	res, err := h.svc.Add(r.Context(), member(r), Lang(r), booking.AddInput{PNR: body.Pnr, Lastname: body.Lastname})
	h.reply(w, r, res, err)
}

func (h *BookingHandlers) GetReservation(w http.ResponseWriter, r *http.Request, pnr string) {
	res, err := h.svc.Get(r.Context(), member(r), pnr, Lang(r))
	h.reply(w, r, res, err)
}

func (h *BookingHandlers) SendItineraryMail(w http.ResponseWriter, r *http.Request, pnr string) {
	res, err := h.svc.SendItinerary(r.Context(), member(r), pnr, Lang(r))
	h.reply(w, r, res, err)
}

func (h *BookingHandlers) GetItineraryPdf(w http.ResponseWriter, r *http.Request, pnr string) {
	b, err := h.svc.Itinerary(r.Context(), member(r), pnr, Lang(r))
	h.pdf(w, r, "itinerary-"+pnr, b, err)
}

func (h *BookingHandlers) GetReceiptPdf(w http.ResponseWriter, r *http.Request, pnr string, p bookingapi.GetReceiptPdfParams) {
	b, err := h.svc.Receipt(r.Context(), member(r), pnr, str(p.Addressee), Lang(r))
	h.pdf(w, r, "receipt-"+pnr, b, err)
}

func (h *BookingHandlers) EditReservation(w http.ResponseWriter, r *http.Request, pnr string) {
	res, err := h.svc.Edit(r.Context(), member(r), pnr, Lang(r))
	h.reply(w, r, res, err)
}

func (h *BookingHandlers) SsoBooking(w http.ResponseWriter, r *http.Request) {
	var body bookingapi.SsoBookingJSONRequestBody
	if r.ContentLength != 0 && !h.DecodeJSON(w, r, &body) {
		return
	}
	res, err := h.svc.SSO(r.Context(), member(r), str(body.Pnr), Lang(r))
	h.reply(w, r, res, err)
}

// BookingAnonymous are the booking calls that work without a session: none
// (the booking site signs members in with OpenID Connect).
var BookingAnonymous = []string{}

func (h *BookingHandlers) GetSegment(w http.ResponseWriter, r *http.Request, pnr, key string) {
	res, err := h.svc.Segment(r.Context(), member(r), pnr, key, Lang(r))
	h.reply(w, r, res, err)
}

func (h *BookingHandlers) certificate(w http.ResponseWriter, r *http.Request, pnr, key, kind string) {
	b, err := h.svc.Certificate(r.Context(), member(r), pnr, key, kind, Lang(r))
	h.pdf(w, r, kind+"-"+pnr+"-"+key, b, err)
}

func (h *BookingHandlers) GetBoardingCertificate(w http.ResponseWriter, r *http.Request, pnr, key string) {
	h.certificate(w, r, pnr, key, booking.DocBoarding)
}

func (h *BookingHandlers) GetDelayCertificate(w http.ResponseWriter, r *http.Request, pnr, key string) {
	h.certificate(w, r, pnr, key, booking.DocDelay)
}

func (h *BookingHandlers) GetCancellationCertificate(w http.ResponseWriter, r *http.Request, pnr, key string) {
	h.certificate(w, r, pnr, key, booking.DocCancellation)
}

func (h *BookingHandlers) GetHotelOffers(w http.ResponseWriter, r *http.Request, pnr, key string) {
	res, err := h.svc.Offers(r.Context(), member(r), pnr, key, booking.OfferHotel, Lang(r))
	h.reply(w, r, res, err)
}

func (h *BookingHandlers) GetRentalOffers(w http.ResponseWriter, r *http.Request, pnr, key string) {
	res, err := h.svc.Offers(r.Context(), member(r), pnr, key, booking.OfferRental, Lang(r))
	h.reply(w, r, res, err)
}

// pdf writes a PDF shown inline by the browser (downloadable by name).
func (h *BookingHandlers) pdf(w http.ResponseWriter, r *http.Request, name string, b []byte, err error) {
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/pdf")
	w.Header().Set("Content-Disposition", fmt.Sprintf("inline; filename=%q", name+".pdf"))
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.Header().Set("Cache-Control", "private, no-store")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b) // #nosec G705 -- a PDF rendered by the server, served as application/pdf with nosniff
}
