package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"members/internal/privacy"
)

// The export's parts, one per feature's tables. Each lists the columns it
// gives the member, by name and kind; secrets (password and token hashes,
// card tokens, payment secrets) are never among them.

type exportKind int

const (
	colText exportKind = iota
	colInt
	colBool
	colInstant // BIGINT unix ms → RFC 3339 UTC (null stays null)
)

type exportCol struct {
	name string // SQL column
	key  string // JSON key
	kind exportKind
}

// rows runs a query and returns each row as an object of the columns.
func exportRows(ctx context.Context, db *DB, cols []exportCol, from string, args ...any) ([]map[string]any, error) {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.name
	}
	r, err := db.QueryContext(ctx, "SELECT "+strings.Join(names, ", ")+" "+from, args...)
	if err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	defer r.Close()
	out := []map[string]any{}
	for r.Next() {
		dest := make([]any, len(cols))
		for i, c := range cols {
			switch c.kind {
			case colText:
				dest[i] = new(sql.NullString)
			case colInt:
				dest[i] = new(sql.NullInt64)
			case colBool:
				dest[i] = new(sql.NullBool)
			case colInstant:
				dest[i] = new(sql.NullInt64)
			}
		}
		if err := r.Scan(dest...); err != nil {
			return nil, fmt.Errorf("export: %w", err)
		}
		row := make(map[string]any, len(cols))
		for i, c := range cols {
			switch v := dest[i].(type) {
			case *sql.NullString:
				row[c.key] = v.String
			case *sql.NullBool:
				row[c.key] = v.Bool
			case *sql.NullInt64:
				switch {
				case c.kind == colInstant && v.Valid:
					row[c.key] = time.UnixMilli(v.Int64).UTC().Format(time.RFC3339)
				case c.kind == colInstant:
					row[c.key] = nil
				default:
					row[c.key] = v.Int64
				}
			}
		}
		out = append(out, row)
	}
	return out, r.Err()
}

func ecol(name, key string, kind exportKind) exportCol {
	return exportCol{name: name, key: key, kind: kind}
}

// ExportParts returns the export's parts of the tables that exist: account,
// bookings, payments, passes and coupons, sessions, calendar, mails.
func ExportParts(db *DB) []privacy.Part {
	part := func(key string, f func(ctx context.Context, id string) (any, error)) privacy.Part {
		return privacy.Part{Key: key, Export: f}
	}
	list := func(cols []exportCol, from string) func(ctx context.Context, id string) (any, error) {
		return func(ctx context.Context, id string) (any, error) { return exportRows(ctx, db, cols, from, id) }
	}
	return []privacy.Part{
		part("profile", func(ctx context.Context, id string) (any, error) {
			rs, err := exportRows(ctx, db, []exportCol{
				ecol("email", "email", colText), ecol("firstname", "firstname", colText), ecol("lastname", "lastname", colText),
				ecol("gender", "gender", colText), ecol("birth", "birth", colText), ecol("tel", "tel", colText),
				ecol("address_country_code", "addressCountryCode", colText), ecol("address_postal_code", "addressPostalCode", colText),
				ecol("address_state_and_city", "addressStateAndCity", colText), ecol("address1", "address1", colText),
				ecol("address1", "addressStreet", colText),
				ecol("passport_no", "passportNo", colText), ecol("passport_nationality_code", "passportNationalityCode", colText),
				ecol("passport_issue_country_code", "passportIssueCountryCode", colText),
				ecol("passport_expiration_date", "passportExpirationDate", colText), ecol("optin1", "optin1", colBool),
				ecol("auto_login_is_active", "autoLoginIsActive", colBool), ecol("auto_login_notice_mail", "autoLoginNoticeMail", colBool),
				ecol("lang", "lang", colText), ecol("created_at", "createdAt", colInstant), ecol("updated_at", "updatedAt", colInstant),
			}, "FROM members WHERE id = $1", id)
			if err != nil || len(rs) == 0 {
				return map[string]any{}, err
			}
			return rs[0], nil
		}),
		part("passengers", list([]exportCol{
			ecol("passenger_type", "passengerType", colText), ecol("firstname", "firstname", colText), ecol("lastname", "lastname", colText),
			ecol("gender", "gender", colText), ecol("birth", "birth", colText), ecol("tel", "tel", colText), ecol("email", "email", colText),
			ecol("passport_no", "passportNo", colText), ecol("passport_nationality_code", "passportNationalityCode", colText),
			ecol("passport_issue_country_code", "passportIssueCountryCode", colText),
			ecol("passport_expiration_date", "passportExpirationDate", colText), ecol("created_at", "createdAt", colInstant),
		}, "FROM passengers WHERE member_id = $1 ORDER BY created_at, id")),
		part("bookings", func(ctx context.Context, id string) (any, error) { return exportBookings(ctx, db, id) }),
		part("savedCards", list([]exportCol{
			ecol("brand", "brand", colText), ecol("last4", "last4", colText), ecol("created_at", "savedAt", colInstant),
		}, "FROM saved_cards WHERE member_id = $1 ORDER BY created_at")),
		part("payments", list([]exportCol{
			ecol("id", "id", colText), ecol("product_type", "productType", colText), ecol("description", "description", colText),
			ecol("status", "status", colText), ecol("amount", "amount", colInt), ecol("currency", "currency", colText),
			ecol("refunded_amount", "refundedAmount", colInt), ecol("payment_method", "paymentMethod", colText),
			ecol("other_payment_type", "otherPaymentType", colText), ecol("card_brand", "cardBrand", colText), ecol("card_last4", "cardLast4", colText),
			ecol("created_at", "createdAt", colInstant), ecol("settled_at", "settledAt", colInstant),
		}, "FROM payment_processes WHERE member_id = $1 ORDER BY created_at")),
		part("passes", list([]exportCol{
			ecol("code", "code", colText), ecol("plan_id", "planId", colText), ecol("period_id", "periodId", colText),
			ecol("fare_type", "fareType", colText), ecol("currency", "currency", colText), ecol("purchased_price", "purchasedPrice", colInt),
			ecol("source", "source", colText), ecol("purchased_at", "purchasedAt", colInstant),
		}, "FROM gogo_passes WHERE member_id = $1 ORDER BY purchased_at")),
		part("passLotteryEntries", list([]exportCol{
			ecol("plan_id", "planId", colText), ecol("period_id", "periodId", colText), ecol("fare_type", "fareType", colText),
			ecol("result", "result", colText), ecol("created_at", "enteredAt", colInstant),
		}, "FROM gogo_pass_entries WHERE member_id = $1 ORDER BY created_at")),
		part("coupons", func(ctx context.Context, id string) (any, error) { return exportCoupons(ctx, db, id) }),
		part("points", func(ctx context.Context, id string) (any, error) { return exportPoints(ctx, db, id) }),
		part("sessions", list([]exportCol{
			ecol("created_at", "signedInAt", colInstant), ecol("last_seen_at", "lastActivityAt", colInstant),
			ecol("client_addr", "clientAddress", colText), ecol("user_agent", "userAgent", colText),
		}, "FROM sessions WHERE member_id = $1 ORDER BY created_at")),
		part("securityEvents", list([]exportCol{
			ecol("kind", "kind", colText), ecol("at", "at", colInstant), ecol("client_addr", "clientAddress", colText),
			ecol("user_agent", "userAgent", colText),
		}, "FROM security_events WHERE member_id = $1 ORDER BY at")),
		part("passkeys", list([]exportCol{
			ecol("name", "name", colText), ecol("created_at", "createdAt", colInstant), ecol("last_used_at", "lastUsedAt", colInstant),
		}, "FROM passkeys WHERE member_id = $1 ORDER BY created_at, id")),
		// The sites the member lets sign them in with this account (OpenID
		// Connect clients granted), and what each receives.
		part("connectedSites", list([]exportCol{
			ecol("c.name", "site", colText), ecol("g.scopes", "scopes", colText), ecol("g.created_at", "grantedAt", colInstant),
			ecol("g.last_used_at", "lastUsedAt", colInstant),
		}, "FROM oidc_grants g JOIN oidc_clients c ON c.id = g.client_id WHERE g.member_id = $1 ORDER BY g.created_at, c.name")),
		part("pushDevices", list([]exportCol{
			ecol("user_agent", "userAgent", colText), ecol("created_at", "switchedOnAt", colInstant),
			ecol("NULLIF(last_push_at, 0)", "lastPushAt", colInstant),
		}, "FROM push_subscriptions WHERE member_id = $1 ORDER BY created_at, id")),
		part("calendarSubscription", list([]exportCol{
			ecol("created_at", "createdAt", colInstant), ecol("last_used_at", "lastUsedAt", colInstant),
		}, "FROM calendar_feeds WHERE member_id = $1")),
		part("notificationSettings", func(ctx context.Context, id string) (any, error) { return exportNotify(ctx, db, id) }),
		part("mails", list([]exportCol{
			ecol("kind", "kind", colText), ecol("subject", "subject", colText), ecol("lang", "lang", colText),
			ecol("status", "status", colText), ecol("created_at", "createdAt", colInstant), ecol("sent_at", "sentAt", colInstant),
		}, "FROM mail_outbox WHERE LOWER(to_addr) = (SELECT email_key FROM members WHERE id = $1) ORDER BY created_at")),
	}
}

// exportNotify is the member's notification settings as they apply: the
// optional mails on unless switched off, security alerts always on, and
// the mail language chosen (null: the account's language).
func exportNotify(ctx context.Context, db *DB, memberID string) (any, error) {
	st, err := NewNotifyStore(db).Settings(ctx, memberID)
	if err != nil {
		return nil, fmt.Errorf("export notification settings: %w", err)
	}
	in := st.Apply()
	var chosen any
	if st.MailLang != "" {
		chosen = st.MailLang
	}
	return map[string]any{
		"flightChanges": in.FlightChanges, "pointsReminders": in.PointsReminders, "securityAlerts": true,
		"mailLang": chosen,
	}, nil
}

func exportBookings(ctx context.Context, db *DB, memberID string) (any, error) {
	res, err := exportRows(ctx, db, []exportCol{
		ecol("id", "id", colText), ecol("pnr", "pnr", colText), ecol("booked_at", "bookedAt", colInstant), ecol("status_code", "statusCode", colText),
		ecol("currency", "currency", colText), ecol("total_amount", "totalAmount", colInt), ecol("contact_email", "contactEmail", colText),
	}, "FROM reservations WHERE member_id = $1 ORDER BY first_depart_at, id", memberID)
	if err != nil {
		return nil, err
	}
	for _, r := range res {
		id := r["id"]
		delete(r, "id")
		if r["segments"], err = exportRows(ctx, db, []exportCol{
			ecol("flight", "flight", colText), ecol("status_code", "statusCode", colText),
			ecol("origin_airport_code", "originAirportCode", colText), ecol("origin_terminal", "originTerminal", colText),
			ecol("destination_airport_code", "destinationAirportCode", colText), ecol("destination_terminal", "destinationTerminal", colText),
			ecol("depart_at", "departAt", colInstant), ecol("arrival_at", "arrivalAt", colInstant), ecol("flight_status", "flightStatus", colText),
		}, "FROM reservation_segments WHERE reservation_id = $1 ORDER BY position", id); err != nil {
			return nil, err
		}
		if r["passengers"], err = exportRows(ctx, db, []exportCol{
			ecol("lastname", "lastname", colText), ecol("firstname", "firstname", colText), ecol("passenger_type", "passengerType", colText),
		}, "FROM reservation_passengers WHERE reservation_id = $1 ORDER BY position", id); err != nil {
			return nil, err
		}
	}
	return res, nil
}

func exportCoupons(ctx context.Context, db *DB, memberID string) (any, error) {
	res, err := exportRows(ctx, db, []exportCol{
		ecol("id", "id", colText), ecol("name", "name", colText), ecol("fare_type", "fareType", colText), ecol("currency", "currency", colText),
		ecol("purchased_price", "purchasedPrice", colInt), ecol("board_begin", "boardBegin", colText), ecol("board_end", "boardEnd", colText),
		ecol("number_of_use", "numberOfUse", colInt), ecol("number_of_used", "numberOfUsed", colInt),
		ecol("purchaser_lastname", "purchaserLastname", colText), ecol("purchaser_firstname", "purchaserFirstname", colText),
		ecol("purchaser_birthday", "purchaserBirthday", colText), ecol("purchaser_gender", "purchaserGender", colText),
		ecol("purchased_at", "purchasedAt", colInstant), ecol("refund_state", "refundState", colText), ecol("refunded_at", "refundedAt", colInstant),
	}, "FROM coupons WHERE member_id = $1 ORDER BY purchased_at", memberID)
	if err != nil {
		return nil, err
	}
	for _, r := range res {
		id := r["id"]
		delete(r, "id")
		if r["passengers"], err = exportRows(ctx, db, []exportCol{
			ecol("passenger_type", "passengerType", colText), ecol("lastname", "lastname", colText), ecol("firstname", "firstname", colText),
			ecol("gender", "gender", colText), ecol("date_of_birth", "dateOfBirth", colText), ecol("nationality_code", "nationalityCode", colText),
			ecol("passport_no", "passportNo", colText), ecol("date_of_entry", "dateOfEntry", colText),
			ecol("inbound_transport_method", "inboundTransportMethod", colText), ecol("inbound_flight_no", "inboundFlightNo", colText),
		}, "FROM coupon_passengers WHERE coupon_id = $1 ORDER BY position", id); err != nil {
			return nil, err
		}
	}
	return res, nil
}

func exportPoints(ctx context.Context, db *DB, memberID string) (any, error) {
	res, err := exportRows(ctx, db, []exportCol{
		ecol("id", "id", colText), ecol("number", "number", colText), ecol("currency", "currency", colText),
		ecol("issued_amount", "issuedAmount", colInt), ecol("balance", "balance", colInt),
		ecol("effective_date", "effectiveDate", colText), ecol("expire_date", "expireDate", colText),
		ecol("travel_effective_date", "travelEffectiveDate", colText), ecol("travel_expire_date", "travelExpireDate", colText),
		ecol("status_code", "statusCode", colText), ecol("source", "source", colText), ecol("issued_name", "issuedName", colText),
		ecol("payment_amount", "paymentAmount", colInt), ecol("payment_method", "paymentMethod", colText),
		ecol("created_at", "issuedAt", colInstant),
	}, "FROM point_vouchers WHERE member_id = $1 ORDER BY created_at, id", memberID)
	if err != nil {
		return nil, err
	}
	for _, r := range res {
		id := r["id"]
		delete(r, "id")
		if r["ledger"], err = exportRows(ctx, db, []exportCol{
			ecol("kind", "kind", colText), ecol("delta", "delta", colInt), ecol("balance_after", "balanceAfter", colInt),
			ecol("created_at", "at", colInstant),
		}, "FROM point_ledger WHERE voucher_id = $1 ORDER BY seq", id); err != nil {
			return nil, err
		}
	}
	return res, nil
}
