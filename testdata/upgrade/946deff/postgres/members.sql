--
-- PostgreSQL database dump
--




--
-- Name: upgrade_fixture_schema; Type: SCHEMA; Schema: -; Owner: -
--



--
-- Name: reservation_passengers_bump_version(); Type: FUNCTION; Schema: upgrade_fixture_schema; Owner: -
--

CREATE FUNCTION upgrade_fixture_schema.reservation_passengers_bump_version() RETURNS trigger
    LANGUAGE plpgsql
    SET jit TO 'off'
    AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		UPDATE members SET bookings_version = bookings_version + 1 WHERE id IN (SELECT r.member_id FROM reservations r WHERE r.id IN (SELECT reservation_id FROM new_rows));
	ELSIF TG_OP = 'DELETE' THEN
		UPDATE members SET bookings_version = bookings_version + 1 WHERE id IN (SELECT r.member_id FROM reservations r WHERE r.id IN (SELECT reservation_id FROM old_rows));
	ELSE
		UPDATE members SET bookings_version = bookings_version + 1
		WHERE id IN (SELECT r.member_id FROM reservations r WHERE r.id IN (SELECT reservation_id FROM old_rows) UNION SELECT r.member_id FROM reservations r WHERE r.id IN (SELECT reservation_id FROM new_rows));
	END IF;
	RETURN NULL;
END $$;


--
-- Name: reservation_passengers_rebuild_view(); Type: FUNCTION; Schema: upgrade_fixture_schema; Owner: -
--

CREATE FUNCTION upgrade_fixture_schema.reservation_passengers_rebuild_view() RETURNS trigger
    LANGUAGE plpgsql
    SET jit TO 'off'
    AS $$
DECLARE
	ids text[];
BEGIN
	IF TG_OP = 'INSERT' THEN
		ids := ARRAY(SELECT DISTINCT reservation_id FROM new_rows);
	ELSIF TG_OP = 'DELETE' THEN
		ids := ARRAY(SELECT DISTINCT reservation_id FROM old_rows);
	ELSE
		ids := ARRAY(SELECT reservation_id FROM old_rows UNION SELECT reservation_id FROM new_rows);
	END IF;
	PERFORM 1 FROM reservations WHERE id = ANY(ids) ORDER BY id FOR UPDATE;
	UPDATE reservations r SET passengers_view = (SELECT json_agg(json_build_array(x.lastname, x.firstname, x.passenger_type) ORDER BY x.position)::text FROM reservation_passengers x WHERE x.reservation_id = r.id) WHERE r.id = ANY(ids);
	RETURN NULL;
END $$;


--
-- Name: reservation_segments_bump_version(); Type: FUNCTION; Schema: upgrade_fixture_schema; Owner: -
--

CREATE FUNCTION upgrade_fixture_schema.reservation_segments_bump_version() RETURNS trigger
    LANGUAGE plpgsql
    SET jit TO 'off'
    AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		UPDATE members SET bookings_version = bookings_version + 1 WHERE id IN (SELECT r.member_id FROM reservations r WHERE r.id IN (SELECT reservation_id FROM new_rows));
	ELSIF TG_OP = 'DELETE' THEN
		UPDATE members SET bookings_version = bookings_version + 1 WHERE id IN (SELECT r.member_id FROM reservations r WHERE r.id IN (SELECT reservation_id FROM old_rows));
	ELSE
		UPDATE members SET bookings_version = bookings_version + 1
		WHERE id IN (SELECT r.member_id FROM reservations r WHERE r.id IN (SELECT reservation_id FROM old_rows) UNION SELECT r.member_id FROM reservations r WHERE r.id IN (SELECT reservation_id FROM new_rows));
	END IF;
	RETURN NULL;
END $$;


--
-- Name: reservation_segments_rebuild_view(); Type: FUNCTION; Schema: upgrade_fixture_schema; Owner: -
--

CREATE FUNCTION upgrade_fixture_schema.reservation_segments_rebuild_view() RETURNS trigger
    LANGUAGE plpgsql
    SET jit TO 'off'
    AS $$
DECLARE
	ids text[];
BEGIN
	IF TG_OP = 'INSERT' THEN
		ids := ARRAY(SELECT DISTINCT reservation_id FROM new_rows);
	ELSIF TG_OP = 'DELETE' THEN
		ids := ARRAY(SELECT DISTINCT reservation_id FROM old_rows);
	ELSE
		ids := ARRAY(SELECT reservation_id FROM old_rows UNION SELECT reservation_id FROM new_rows);
	END IF;
	PERFORM 1 FROM reservations WHERE id = ANY(ids) ORDER BY id FOR UPDATE;
	UPDATE reservations r SET segments_view = (SELECT json_agg(json_build_array(s.seg_key, s.status_code, s.flight, s.flight_number, s.is_show_hotel_link,
		s.origin_airport_code, s.origin_terminal, s.origin_gate, s.destination_airport_code, s.destination_terminal,
		s.depart_at, s.estimated_depart_at, s.actual_depart_at, s.arrival_at, s.estimated_arrival_at, s.actual_arrival_at, s.flight_status,
		s.change_seq, s.change_kind, s.previous_depart_at, s.previous_arrival_at, s.diverted_to) ORDER BY s.position)::text FROM reservation_segments s WHERE s.reservation_id = r.id) WHERE r.id = ANY(ids);
	RETURN NULL;
END $$;


--
-- Name: reservations_bump_version(); Type: FUNCTION; Schema: upgrade_fixture_schema; Owner: -
--

CREATE FUNCTION upgrade_fixture_schema.reservations_bump_version() RETURNS trigger
    LANGUAGE plpgsql
    SET jit TO 'off'
    AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		UPDATE members SET bookings_version = bookings_version + 1 WHERE id IN (SELECT member_id FROM new_rows);
	ELSIF TG_OP = 'DELETE' THEN
		UPDATE members SET bookings_version = bookings_version + 1 WHERE id IN (SELECT member_id FROM old_rows);
	ELSE
		UPDATE members SET bookings_version = bookings_version + 1
		WHERE id IN (SELECT member_id FROM old_rows UNION SELECT member_id FROM new_rows);
	END IF;
	RETURN NULL;
END $$;



--
-- Name: account_deletions; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.account_deletions (
    member_id text NOT NULL,
    token_hash text NOT NULL,
    created_at bigint NOT NULL,
    expires_at bigint NOT NULL
);


--
-- Name: calendar_feeds; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.calendar_feeds (
    member_id text NOT NULL,
    token_hash text NOT NULL,
    created_at bigint NOT NULL,
    last_used_at bigint
);


--
-- Name: coupon_passengers; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.coupon_passengers (
    coupon_id text NOT NULL,
    "position" integer NOT NULL,
    passenger_type text NOT NULL,
    lastname text NOT NULL,
    firstname text NOT NULL,
    gender text NOT NULL,
    date_of_birth text NOT NULL,
    nationality_code text NOT NULL,
    passport_no text NOT NULL,
    date_of_entry text NOT NULL,
    inbound_transport_method text NOT NULL,
    inbound_flight_no text NOT NULL
);


--
-- Name: coupon_periods; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.coupon_periods (
    id text NOT NULL,
    product_id text NOT NULL,
    description text NOT NULL,
    board_begin text NOT NULL,
    board_end text NOT NULL,
    book_begin text NOT NULL,
    book_end text NOT NULL,
    currency text NOT NULL,
    lite_days integer NOT NULL,
    lite_uses integer NOT NULL,
    lite_price bigint NOT NULL,
    standard_days integer NOT NULL,
    standard_uses integer NOT NULL,
    standard_price bigint NOT NULL
);


--
-- Name: coupon_prepared; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.coupon_prepared (
    member_id text NOT NULL,
    request_id text NOT NULL,
    body text NOT NULL,
    created_at bigint NOT NULL
);


--
-- Name: coupon_products; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.coupon_products (
    id text NOT NULL,
    name text NOT NULL,
    description text NOT NULL,
    "position" integer NOT NULL,
    international integer DEFAULT 1 NOT NULL
);


--
-- Name: coupons; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.coupons (
    id text NOT NULL,
    member_id text NOT NULL,
    product_id text NOT NULL,
    period_id text NOT NULL,
    name text NOT NULL,
    description text NOT NULL,
    board_begin text NOT NULL,
    board_end text NOT NULL,
    book_begin text NOT NULL,
    book_end text NOT NULL,
    fare_type text NOT NULL,
    currency text NOT NULL,
    price_per_person bigint NOT NULL,
    purchased_price bigint NOT NULL,
    items integer NOT NULL,
    days_after_first_use integer NOT NULL,
    number_of_use integer NOT NULL,
    number_of_used integer DEFAULT 0 NOT NULL,
    purchaser_lastname text NOT NULL,
    purchaser_firstname text NOT NULL,
    purchaser_birthday text NOT NULL,
    purchaser_gender text NOT NULL,
    payment_process_id text,
    purchased_at bigint NOT NULL,
    refund_state text DEFAULT ''::text NOT NULL,
    refund_amount bigint DEFAULT 0 NOT NULL,
    refunded_at bigint
);


--
-- Name: email_changes; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.email_changes (
    id text NOT NULL,
    member_id text NOT NULL,
    old_email text NOT NULL,
    new_email text NOT NULL,
    confirm_hash text NOT NULL,
    undo_hash text NOT NULL,
    created_at bigint NOT NULL,
    expires_at bigint NOT NULL,
    undo_until bigint NOT NULL,
    confirmed_at bigint,
    undone_at bigint
);


--
-- Name: exception_reports; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.exception_reports (
    id text NOT NULL,
    received_at bigint NOT NULL,
    name text NOT NULL,
    message text NOT NULL,
    stack text NOT NULL,
    path text NOT NULL,
    client_addr text NOT NULL
);


--
-- Name: flight_alerts; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.flight_alerts (
    flight text NOT NULL,
    flight_date text NOT NULL,
    member_id text NOT NULL,
    sequence integer NOT NULL,
    sent_sequence integer DEFAULT 0 NOT NULL,
    due_at bigint NOT NULL,
    lease_owner text DEFAULT ''::text NOT NULL,
    lease_until bigint DEFAULT 0 NOT NULL
);


--
-- Name: flight_events; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.flight_events (
    id text NOT NULL,
    flight text NOT NULL,
    flight_date text NOT NULL,
    kind text NOT NULL,
    occurred_at bigint NOT NULL,
    received_at bigint NOT NULL,
    source text NOT NULL,
    payload text NOT NULL,
    outcome text NOT NULL,
    bookings integer DEFAULT 0 NOT NULL
);


--
-- Name: flight_states; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.flight_states (
    flight text NOT NULL,
    flight_date text NOT NULL,
    origin_airport_code text NOT NULL,
    destination_airport_code text NOT NULL,
    original_depart_at bigint NOT NULL,
    original_arrival_at bigint NOT NULL,
    depart_at bigint NOT NULL,
    arrival_at bigint NOT NULL,
    estimated_depart_at bigint,
    estimated_arrival_at bigint,
    flight_status text NOT NULL,
    gate text DEFAULT ''::text NOT NULL,
    terminal text DEFAULT ''::text NOT NULL,
    diverted_to text DEFAULT ''::text NOT NULL,
    last_kind text DEFAULT ''::text NOT NULL,
    times_at bigint DEFAULT 0 NOT NULL,
    gate_at bigint DEFAULT 0 NOT NULL,
    route_at bigint DEFAULT 0 NOT NULL,
    sequence integer DEFAULT 0 NOT NULL,
    updated_at bigint NOT NULL
);


--
-- Name: gateway_goose_version; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.gateway_goose_version (
    id integer NOT NULL,
    version_id bigint NOT NULL,
    is_applied boolean NOT NULL,
    tstamp timestamp without time zone DEFAULT now() NOT NULL
);


--
-- Name: gateway_goose_version_id_seq; Type: SEQUENCE; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE upgrade_fixture_schema.gateway_goose_version ALTER COLUMN id ADD GENERATED BY DEFAULT AS IDENTITY (
    SEQUENCE NAME upgrade_fixture_schema.gateway_goose_version_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: gogo_pass_draws; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.gogo_pass_draws (
    id text NOT NULL,
    seed text NOT NULL,
    entrants integer NOT NULL,
    winners integer NOT NULL,
    drawn_at bigint NOT NULL,
    buy_until bigint NOT NULL
);


--
-- Name: gogo_pass_entries; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.gogo_pass_entries (
    id text NOT NULL,
    member_id text NOT NULL,
    plan_id text NOT NULL,
    period_id text NOT NULL,
    fare_type text NOT NULL,
    lang text NOT NULL,
    result text DEFAULT 'pending'::text NOT NULL,
    draw_id text,
    created_at bigint NOT NULL
);


--
-- Name: gogo_pass_exchange_codes; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.gogo_pass_exchange_codes (
    id text NOT NULL,
    code text NOT NULL,
    password_hash text NOT NULL,
    plan_id text NOT NULL,
    period_id text NOT NULL,
    fare_type text NOT NULL,
    redeemed_by text,
    redeemed_at bigint
);


--
-- Name: gogo_pass_periods; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.gogo_pass_periods (
    id text NOT NULL,
    plan_id text NOT NULL,
    board_begin text NOT NULL,
    board_end text NOT NULL,
    book_begin text NOT NULL,
    book_end text NOT NULL,
    currency text NOT NULL,
    price_happy bigint NOT NULL,
    price_happlus bigint NOT NULL,
    lottery_quota integer DEFAULT 0 NOT NULL
);


--
-- Name: gogo_pass_plans; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.gogo_pass_plans (
    id text NOT NULL,
    name text NOT NULL,
    name_alt text NOT NULL,
    "position" integer NOT NULL
);


--
-- Name: gogo_passes; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.gogo_passes (
    id text NOT NULL,
    code text NOT NULL,
    member_id text NOT NULL,
    plan_id text NOT NULL,
    period_id text NOT NULL,
    fare_type text NOT NULL,
    currency text NOT NULL,
    purchased_price bigint NOT NULL,
    source text NOT NULL,
    payment_process_id text,
    exchange_code_id text,
    purchased_at bigint NOT NULL,
    duplicate_of text
);


--
-- Name: goose_db_version; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.goose_db_version (
    id integer NOT NULL,
    version_id bigint NOT NULL,
    is_applied boolean NOT NULL,
    tstamp timestamp without time zone DEFAULT now() NOT NULL
);


--
-- Name: goose_db_version_id_seq; Type: SEQUENCE; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE upgrade_fixture_schema.goose_db_version ALTER COLUMN id ADD GENERATED BY DEFAULT AS IDENTITY (
    SEQUENCE NAME upgrade_fixture_schema.goose_db_version_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: gw_deliveries; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.gw_deliveries (
    event_id text NOT NULL,
    attempt integer NOT NULL,
    worker text NOT NULL,
    status_code integer NOT NULL,
    error text NOT NULL,
    at bigint NOT NULL
);


--
-- Name: gw_events; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.gw_events (
    id text NOT NULL,
    type text NOT NULL,
    payment_id text NOT NULL,
    payload text NOT NULL,
    created_at bigint NOT NULL,
    attempts integer NOT NULL,
    next_attempt_at bigint NOT NULL,
    lease_owner text NOT NULL,
    lease_until bigint NOT NULL,
    delivered_at bigint,
    last_error text NOT NULL
);


--
-- Name: gw_idempotency; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.gw_idempotency (
    idem_key text NOT NULL,
    request_hash text NOT NULL,
    status_code integer NOT NULL,
    response text NOT NULL,
    created_at bigint NOT NULL
);


--
-- Name: gw_keys; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.gw_keys (
    name text NOT NULL,
    value text NOT NULL
);


--
-- Name: gw_payments; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.gw_payments (
    id text NOT NULL,
    status text NOT NULL,
    amount bigint NOT NULL,
    currency text NOT NULL,
    method text NOT NULL,
    reference text NOT NULL,
    description text NOT NULL,
    return_url text NOT NULL,
    token text NOT NULL,
    brand text NOT NULL,
    last4 text NOT NULL,
    behaviour text NOT NULL,
    failure_code text NOT NULL,
    refunded_amount bigint NOT NULL,
    expires_at bigint,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL
);


--
-- Name: gw_tokens; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.gw_tokens (
    token text NOT NULL,
    brand text NOT NULL,
    last4 text NOT NULL,
    expiration text NOT NULL,
    holder_name text NOT NULL,
    behaviour text NOT NULL,
    created_at bigint NOT NULL
);


--
-- Name: handover_redemptions; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.handover_redemptions (
    token_id text NOT NULL,
    expires_at bigint NOT NULL
);


--
-- Name: mail_outbox; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.mail_outbox (
    id text NOT NULL,
    created_at bigint NOT NULL,
    kind text DEFAULT ''::text NOT NULL,
    to_addr text NOT NULL,
    lang text NOT NULL,
    subject text NOT NULL,
    text_body text NOT NULL,
    html_body text NOT NULL,
    attachments text DEFAULT '[]'::text NOT NULL,
    status text NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    next_attempt_at bigint DEFAULT 0 NOT NULL,
    last_error text DEFAULT ''::text NOT NULL,
    sent_at bigint,
    headers text DEFAULT '{}'::text NOT NULL
);


--
-- Name: members; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.members (
    id text NOT NULL,
    email text NOT NULL,
    email_key text NOT NULL,
    password_hash text NOT NULL,
    firstname text DEFAULT ''::text NOT NULL,
    lastname text DEFAULT ''::text NOT NULL,
    gender text DEFAULT ''::text NOT NULL,
    birth text DEFAULT '1990-01-01'::text NOT NULL,
    tel text DEFAULT ''::text NOT NULL,
    address_country_code text DEFAULT ''::text NOT NULL,
    address_postal_code text DEFAULT ''::text NOT NULL,
    address_state_and_city text DEFAULT ''::text NOT NULL,
    address1 text DEFAULT ''::text NOT NULL,
    passport_no text DEFAULT ''::text NOT NULL,
    passport_nationality_code text DEFAULT ''::text NOT NULL,
    passport_issue_country_code text DEFAULT ''::text NOT NULL,
    passport_expiration_date text DEFAULT ''::text NOT NULL,
    optin1 boolean DEFAULT true NOT NULL,
    auto_login_is_active boolean DEFAULT false NOT NULL,
    auto_login_notice_mail boolean DEFAULT true NOT NULL,
    is_employee boolean DEFAULT false NOT NULL,
    online_shop_account_status text DEFAULT 'unknown'::text NOT NULL,
    lang text DEFAULT 'en'::text NOT NULL,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL,
    bookings_version bigint DEFAULT 0 NOT NULL,
    deleted_at bigint
);


--
-- Name: notification_settings; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.notification_settings (
    member_id text NOT NULL,
    flight_changes boolean DEFAULT true NOT NULL,
    points_reminders boolean DEFAULT true NOT NULL,
    mail_lang text,
    updated_at bigint NOT NULL
);


--
-- Name: passengers; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.passengers (
    id text NOT NULL,
    member_id text NOT NULL,
    passenger_type text DEFAULT 'ADULT'::text NOT NULL,
    firstname text NOT NULL,
    lastname text NOT NULL,
    gender text NOT NULL,
    birth text NOT NULL,
    tel text DEFAULT ''::text NOT NULL,
    email text DEFAULT ''::text NOT NULL,
    passport_no text DEFAULT ''::text NOT NULL,
    passport_nationality_code text DEFAULT ''::text NOT NULL,
    passport_issue_country_code text DEFAULT ''::text NOT NULL,
    passport_expiration_date text DEFAULT ''::text NOT NULL,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL
);


--
-- Name: passkeys; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.passkeys (
    id text NOT NULL,
    member_id text NOT NULL,
    credential_id text NOT NULL,
    credential text NOT NULL,
    name text NOT NULL,
    created_at bigint NOT NULL,
    last_used_at bigint
);


--
-- Name: password_resets; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.password_resets (
    token_hash text NOT NULL,
    member_id text NOT NULL,
    created_at bigint NOT NULL,
    expires_at bigint NOT NULL,
    used_at bigint
);


--
-- Name: payment_discrepancies; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.payment_discrepancies (
    id text NOT NULL,
    process_id text NOT NULL,
    source text NOT NULL,
    event_id text DEFAULT ''::text NOT NULL,
    gateway_payment_id text DEFAULT ''::text NOT NULL,
    detail text NOT NULL,
    created_at bigint NOT NULL
);


--
-- Name: payment_jobs; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.payment_jobs (
    name text NOT NULL,
    lease_owner text DEFAULT ''::text NOT NULL,
    lease_until bigint DEFAULT 0 NOT NULL,
    next_run_at bigint DEFAULT 0 NOT NULL,
    last_run_at bigint DEFAULT 0 NOT NULL
);


--
-- Name: payment_processes; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.payment_processes (
    id text NOT NULL,
    member_id text NOT NULL,
    request_id text NOT NULL,
    request_hash text NOT NULL,
    product_type text NOT NULL,
    status text NOT NULL,
    lang text NOT NULL,
    amount bigint NOT NULL,
    currency text NOT NULL,
    description text NOT NULL,
    details text NOT NULL,
    payment_method text NOT NULL,
    other_payment_type text DEFAULT ''::text NOT NULL,
    card_gateway text DEFAULT ''::text NOT NULL,
    card_token text DEFAULT ''::text NOT NULL,
    card_brand text DEFAULT ''::text NOT NULL,
    card_last4 text DEFAULT ''::text NOT NULL,
    card_expiration text DEFAULT ''::text NOT NULL,
    card_holder text DEFAULT ''::text NOT NULL,
    save_card boolean DEFAULT false NOT NULL,
    save_card_currency text DEFAULT ''::text NOT NULL,
    gateway_payment_id text DEFAULT ''::text NOT NULL,
    gateway_status text DEFAULT ''::text NOT NULL,
    next_action_url text DEFAULT ''::text NOT NULL,
    failure_code text DEFAULT ''::text NOT NULL,
    goods text DEFAULT ''::text NOT NULL,
    secret text DEFAULT ''::text NOT NULL,
    refunded_amount bigint DEFAULT 0 NOT NULL,
    notified boolean DEFAULT true NOT NULL,
    lease_owner text DEFAULT ''::text NOT NULL,
    lease_until bigint DEFAULT 0 NOT NULL,
    next_check_at bigint DEFAULT 0 NOT NULL,
    expires_at bigint NOT NULL,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL,
    settled_at bigint,
    slip text DEFAULT ''::text NOT NULL
);


--
-- Name: payment_refunds; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.payment_refunds (
    process_id text NOT NULL,
    reason text NOT NULL,
    amount bigint NOT NULL,
    done boolean DEFAULT false NOT NULL,
    created_at bigint NOT NULL
);


--
-- Name: payment_webhook_events; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.payment_webhook_events (
    event_id text NOT NULL,
    type text NOT NULL,
    received_at bigint NOT NULL
);


--
-- Name: point_exchange_codes; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.point_exchange_codes (
    id text NOT NULL,
    code text NOT NULL,
    password_hash text NOT NULL,
    currency text NOT NULL,
    amount bigint NOT NULL,
    ana boolean DEFAULT false NOT NULL,
    used_at bigint,
    used_by text,
    created_at bigint NOT NULL,
    CONSTRAINT point_exchange_codes_amount_check CHECK ((amount > 0))
);


--
-- Name: point_ledger; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.point_ledger (
    id text NOT NULL,
    voucher_id text NOT NULL,
    seq integer NOT NULL,
    kind text NOT NULL,
    delta bigint NOT NULL,
    balance_after bigint NOT NULL,
    reference text DEFAULT ''::text NOT NULL,
    created_at bigint NOT NULL,
    CONSTRAINT point_ledger_balance_after_check CHECK ((balance_after >= 0))
);


--
-- Name: point_reminders; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.point_reminders (
    voucher_id text NOT NULL,
    threshold_days integer NOT NULL,
    sent_at bigint NOT NULL
);


--
-- Name: point_vouchers; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.point_vouchers (
    id text NOT NULL,
    member_id text,
    number text NOT NULL,
    current_code text NOT NULL,
    currency text NOT NULL,
    issued_amount bigint NOT NULL,
    balance bigint NOT NULL,
    effective_date text NOT NULL,
    expire_date text NOT NULL,
    travel_effective_date text NOT NULL,
    travel_expire_date text NOT NULL,
    pin_hash text NOT NULL,
    status_code text NOT NULL,
    rules text DEFAULT '[]'::text NOT NULL,
    source text NOT NULL,
    issued_name text DEFAULT ''::text NOT NULL,
    payment_amount bigint DEFAULT 0 NOT NULL,
    payment_method text DEFAULT ''::text NOT NULL,
    payment_process_id text,
    exchange_code_id text,
    reissued_from text,
    created_at bigint NOT NULL,
    CONSTRAINT point_vouchers_balance_check CHECK ((balance >= 0)),
    CONSTRAINT point_vouchers_issued_amount_check CHECK ((issued_amount > 0))
);


--
-- Name: rate_counters; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.rate_counters (
    key text NOT NULL,
    window_start bigint NOT NULL,
    count integer NOT NULL
);


--
-- Name: reservation_passengers; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.reservation_passengers (
    reservation_id text NOT NULL,
    "position" integer NOT NULL,
    lastname text NOT NULL,
    firstname text NOT NULL,
    passenger_type text DEFAULT 'ADULT'::text NOT NULL
);


--
-- Name: reservation_segments; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.reservation_segments (
    reservation_id text NOT NULL,
    seg_key text NOT NULL,
    "position" integer NOT NULL,
    status_code text NOT NULL,
    flight text NOT NULL,
    flight_number text NOT NULL,
    is_show_hotel_link boolean DEFAULT false NOT NULL,
    origin_airport_code text NOT NULL,
    origin_terminal text DEFAULT ''::text NOT NULL,
    origin_gate text DEFAULT ''::text NOT NULL,
    destination_airport_code text NOT NULL,
    destination_terminal text DEFAULT ''::text NOT NULL,
    depart_at bigint NOT NULL,
    estimated_depart_at bigint,
    actual_depart_at bigint,
    arrival_at bigint NOT NULL,
    estimated_arrival_at bigint,
    actual_arrival_at bigint,
    flight_status text DEFAULT ''::text NOT NULL,
    change_seq integer DEFAULT 0 NOT NULL,
    change_kind text DEFAULT ''::text NOT NULL,
    previous_depart_at bigint,
    previous_arrival_at bigint,
    diverted_to text DEFAULT ''::text NOT NULL
);


--
-- Name: reservations; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.reservations (
    id text NOT NULL,
    pnr text NOT NULL,
    member_id text,
    booked_at bigint NOT NULL,
    status_code text NOT NULL,
    currency text NOT NULL,
    total_amount bigint NOT NULL,
    contact_email text DEFAULT ''::text NOT NULL,
    first_depart_at bigint NOT NULL,
    last_depart_at bigint NOT NULL,
    created_at bigint NOT NULL,
    segments_view text,
    passengers_view text
);


--
-- Name: saved_cards; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.saved_cards (
    gateway text NOT NULL,
    token text NOT NULL,
    member_id text NOT NULL,
    brand text NOT NULL,
    last4 text NOT NULL,
    expiration_date text NOT NULL,
    holder_name text NOT NULL,
    currency text NOT NULL,
    created_at bigint NOT NULL
);


--
-- Name: security_events; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.security_events (
    id text NOT NULL,
    member_id text NOT NULL,
    kind text NOT NULL,
    at bigint NOT NULL,
    client_addr text DEFAULT ''::text NOT NULL,
    user_agent text DEFAULT ''::text NOT NULL,
    device text DEFAULT ''::text NOT NULL
);


--
-- Name: sessions; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.sessions (
    id_hash text NOT NULL,
    member_id text NOT NULL,
    log_id text NOT NULL,
    created_at bigint NOT NULL,
    last_seen_at bigint NOT NULL,
    client_addr text DEFAULT ''::text NOT NULL,
    user_agent text DEFAULT ''::text NOT NULL
);


--
-- Name: settings; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.settings (
    key text NOT NULL,
    value text NOT NULL,
    updated_at bigint NOT NULL
);


--
-- Name: webauthn_challenges; Type: TABLE; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TABLE upgrade_fixture_schema.webauthn_challenges (
    id text NOT NULL,
    member_id text,
    purpose text NOT NULL,
    session text NOT NULL,
    expires_at bigint NOT NULL
);


--
-- Data for Name: account_deletions; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--



--
-- Data for Name: calendar_feeds; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--



--
-- Data for Name: coupon_passengers; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--

INSERT INTO upgrade_fixture_schema.coupon_passengers VALUES
	('c0000000000000000000000000000001', 2, 'adult', 'Yamada', 'Taro', 'male', '1986-09-03', 'JP', 'TR7654321', '2026-12-03', 'air', 'MM102');


--
-- Data for Name: coupon_periods; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--

INSERT INTO upgrade_fixture_schema.coupon_periods VALUES
	('cp-kansai-winter', 'cp-kansai', 'coupon.period.winter.description', '2026-12-04', '2027-03-04', '2026-11-20', '2027-02-23', 'JPY', 7, 4, 19800, 14, 8, 32800),
	('cp-kansai-spring', 'cp-kansai', 'coupon.period.spring.description', '2027-03-05', '2027-06-03', '2026-12-20', '2027-05-24', 'JPY', 7, 4, 21800, 14, 8, 34800),
	('cp-okinawa-summer', 'cp-okinawa', 'coupon.period.summer.description', '2026-12-10', '2027-03-10', '2026-11-20', '2027-02-28', 'JPY', 5, 3, 15800, 10, 6, 24800);


--
-- Data for Name: coupon_prepared; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--



--
-- Data for Name: coupon_products; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--

INSERT INTO upgrade_fixture_schema.coupon_products VALUES
	('cp-kansai', 'coupon.product.kansai.name', 'coupon.product.kansai.description', 0, 1),
	('cp-okinawa', 'coupon.product.okinawa.name', 'coupon.product.okinawa.description', 1, 0);


--
-- Data for Name: coupons; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--

INSERT INTO upgrade_fixture_schema.coupons VALUES
	('c0000000000000000000000000000001', '00000000000000000000000000000001', 'cp-kansai', 'cp-kansai-winter', 'coupon.product.kansai.name', 'coupon.product.kansai.description', '2026-12-04', '2027-03-04', '2026-11-20', '2027-02-23', 'happlus', 'JPY', 32800, 65600, 2, 14, 8, 2, 'Yamada', 'Hanako', '1988-04-12', 'female', NULL, 1794636000000, '', 0, NULL),
	('c0000000000000000000000000000002', '00000000000000000000000000000001', 'cp-okinawa', 'cp-okinawa-summer', 'coupon.product.okinawa.name', 'coupon.product.okinawa.description', '2026-12-10', '2027-03-10', '2026-11-20', '2027-02-28', 'happy', 'JPY', 15800, 15800, 1, 5, 3, 0, 'Yamada', 'Hanako', '1988-04-12', 'female', NULL, 1793426400000, 'done', 6800, 1793599200000),
	('b166753517f59b9818d173ea36275986', '00000000000000000000000000000001', 'cp-kansai', 'cp-kansai-winter', 'coupon.product.kansai.name', 'coupon.product.kansai.description', '2026-12-04', '2027-03-04', '2026-11-20', '2027-02-23', 'happy', 'JPY', 19800, 19800, 1, 7, 4, 0, 'Yamada', 'Hanako', '1988-04-12', 'female', 'a42934216243253b949fcc87df4501a3', 1795154400000, '', 0, NULL);


--
-- Data for Name: email_changes; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--



--
-- Data for Name: exception_reports; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--



--
-- Data for Name: flight_alerts; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--



--
-- Data for Name: flight_events; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--



--
-- Data for Name: flight_states; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--



--
-- Data for Name: gateway_goose_version; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--

INSERT INTO upgrade_fixture_schema.gateway_goose_version VALUES
	(1, 0, true, '2026-11-28 13:01:15.725317'),
	(2, 1, true, '2026-11-28 13:01:15.736114'),
	(3, 2, true, '2026-11-28 13:01:15.776639');


--
-- Data for Name: gogo_pass_draws; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--



--
-- Data for Name: gogo_pass_entries; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--

INSERT INTO upgrade_fixture_schema.gogo_pass_entries VALUES
	('bbbc83ccca9e660f27485e8222684350', '00000000000000000000000000000002', 'gp-all', 'gp-all-next', 'happlus', 'kr', 'pending', NULL, 1794981600000);


--
-- Data for Name: gogo_pass_exchange_codes; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--

INSERT INTO upgrade_fixture_schema.gogo_pass_exchange_codes VALUES
	('391a4621f3c46e0b8432c0adce061c1f', 'GPX-DEMO-0001', 'bd94dcda26fccb4e68d6a31f9b5aac0b571ae266d822620e901ef7ebe3a11d4f', 'gp-all', 'gp-all-next', 'happlus', NULL, NULL),
	('16f933a6a95e378deaf7984280e30c4e', 'GPX-DEMO-0002', 'bd94dcda26fccb4e68d6a31f9b5aac0b571ae266d822620e901ef7ebe3a11d4f', 'gp-all', 'gp-all-next', 'happlus', NULL, NULL),
	('14d3b528d3ded8b7a85527a0e118fc73', 'GPX-DEMO-0003', 'bd94dcda26fccb4e68d6a31f9b5aac0b571ae266d822620e901ef7ebe3a11d4f', 'gp-all', 'gp-all-next', 'happlus', NULL, NULL),
	('13332cfd6c1b062ff22eac1d38d40d5a', 'GPX-WKDY-0001', 'bd94dcda26fccb4e68d6a31f9b5aac0b571ae266d822620e901ef7ebe3a11d4f', 'gp-weekday', 'gp-weekday-next', 'happy', NULL, NULL),
	('22641f2612db1cb6dae1599ca985a191', 'GPX-WKDY-0002', 'bd94dcda26fccb4e68d6a31f9b5aac0b571ae266d822620e901ef7ebe3a11d4f', 'gp-weekday', 'gp-weekday-next', 'happy', NULL, NULL);


--
-- Data for Name: gogo_pass_periods; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--

INSERT INTO upgrade_fixture_schema.gogo_pass_periods VALUES
	('gp-all-current', 'gp-all', '2026-11-10', '2027-02-08', '2026-10-11', '2027-01-19', 'JPY', 49800, 69800, 0),
	('gp-all-next', 'gp-all', '2027-02-09', '2027-05-10', '2026-12-10', '2027-04-19', 'JPY', 54800, 74800, 50),
	('gp-weekday-next', 'gp-weekday', '2026-12-20', '2027-03-20', '2026-11-20', '2027-02-28', 'JPY', 29800, 39800, 30);


--
-- Data for Name: gogo_pass_plans; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--

INSERT INTO upgrade_fixture_schema.gogo_pass_plans VALUES
	('gp-all', 'pass.plan.all.name', 'pass.plan.all.name_alt', 0),
	('gp-weekday', 'pass.plan.weekday.name', 'pass.plan.weekday.name_alt', 1);


--
-- Data for Name: gogo_passes; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--

INSERT INTO upgrade_fixture_schema.gogo_passes VALUES
	('8e732a3558ed04109a76179fdae65581', 'GPDEMO00001', '00000000000000000000000000000001', 'gp-all', 'gp-all-current', 'happy', 'JPY', 49800, 'purchase', NULL, NULL, 1792130400000, NULL);


--
-- Data for Name: goose_db_version; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--

INSERT INTO upgrade_fixture_schema.goose_db_version VALUES
	(1, 0, true, '2026-11-28 13:01:14.259784'),
	(2, 1, true, '2026-11-28 13:01:14.297591'),
	(3, 2, true, '2026-11-28 13:01:14.597979'),
	(4, 3, true, '2026-11-28 13:01:14.66122'),
	(5, 4, true, '2026-11-28 13:01:14.691815'),
	(6, 5, true, '2026-11-28 13:01:14.705181'),
	(7, 6, true, '2026-11-28 13:01:14.781414'),
	(8, 7, true, '2026-11-28 13:01:14.922793'),
	(9, 9, true, '2026-11-28 13:01:15.137302'),
	(10, 31, true, '2026-11-28 13:01:15.151235'),
	(11, 32, true, '2026-11-28 13:01:15.173804'),
	(12, 91, true, '2026-11-28 13:01:15.184808'),
	(13, 92, true, '2026-11-28 13:01:15.191632'),
	(14, 93, true, '2026-11-28 13:01:15.224022'),
	(15, 120, true, '2026-11-28 13:01:15.2648'),
	(16, 130, true, '2026-11-28 13:01:15.286793'),
	(17, 150, true, '2026-11-28 13:01:15.30224'),
	(18, 151, true, '2026-11-28 13:01:15.3307'),
	(19, 152, true, '2026-11-28 13:01:15.450894'),
	(20, 170, true, '2026-11-28 13:01:15.492514'),
	(21, 180, true, '2026-11-28 13:01:15.540313'),
	(22, 190, true, '2026-11-28 13:01:15.561683'),
	(23, 210, true, '2026-11-28 13:01:15.576822'),
	(24, 220, true, '2026-11-28 13:01:15.582678'),
	(25, 230, true, '2026-11-28 13:01:15.593142');


--
-- Data for Name: gw_deliveries; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--



--
-- Data for Name: gw_events; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--

INSERT INTO upgrade_fixture_schema.gw_events VALUES
	('evt_d3c1faa7e292194aab2d2f96', 'payment.captured', 'pay_1236d74032a5a3b417369608', '{"id":"evt_d3c1faa7e292194aab2d2f96","type":"payment.captured","created":1795154400,"data":{"payment":{"id":"pay_1236d74032a5a3b417369608","status":"captured","amount":3000,"currency":"JPY","method":"card","reference":"0e5d195479f7f29d3784cf1c4f174212","description":"Peach Points (JPY)","token":"tok_a260092271f305d4bf853053872c601d","brand":"visa","last4":"4242","refundedAmount":0,"createdAt":"2026-11-20T06:00:00Z","updatedAt":"2026-11-20T06:00:00Z"}}}', 1795154400000, 0, 1795154400000, '', 0, NULL, ''),
	('evt_13093e85bba99d2865af6c89', 'payment.captured', 'pay_03668c474ff159505a55e707', '{"id":"evt_13093e85bba99d2865af6c89","type":"payment.captured","created":1795154400,"data":{"payment":{"id":"pay_03668c474ff159505a55e707","status":"captured","amount":19800,"currency":"JPY","method":"card","reference":"a42934216243253b949fcc87df4501a3","description":"Kansai Discovery Pass","token":"tok_860deca7ed51a4891d3d8f06a4332749","brand":"visa","last4":"4242","refundedAmount":0,"createdAt":"2026-11-20T06:00:00Z","updatedAt":"2026-11-20T06:00:00Z"}}}', 1795154400000, 0, 1795154400000, '', 0, NULL, ''),
	('evt_d3c4fa9d39170319809df810', 'payment.captured', 'pay_7ec6ed7dfbdffd4eb863b9c9', '{"id":"evt_d3c4fa9d39170319809df810","type":"payment.captured","created":1795154400,"data":{"payment":{"id":"pay_7ec6ed7dfbdffd4eb863b9c9","status":"captured","amount":3000,"currency":"JPY","method":"card","reference":"f685f9dc4cc65c848ef42aa5b5ae6686","description":"Peach Points (JPY)","token":"tok_a9fdfd2c5731a5a424b55de71da9e2f4","brand":"visa","last4":"0119","refundedAmount":0,"createdAt":"2026-11-20T06:00:00Z","updatedAt":"2026-11-20T06:00:00Z"}}}', 1795154400000, 0, 1795154400000, '', 0, NULL, '');


--
-- Data for Name: gw_idempotency; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--

INSERT INTO upgrade_fixture_schema.gw_idempotency VALUES
	('cv_ndhk_tok_a260092271f305d4bf853053872c601d', '43c551ba77f6fa9d4437e8f015867783a6ad4cc8dbb00af2bd1595ed25900e09', 200, '{"token":"tok_a260092271f305d4bf853053872c601d","status":"succeeded"}', 1795154400000),
	('pp_0e5d195479f7f29d3784cf1c4f174212_create', '90a3d841a816146ef93947e1612c8ef6b421b41a795679f81d7ebd55fd7f85fd', 200, '{"id":"pay_1236d74032a5a3b417369608","status":"created","amount":3000,"currency":"JPY","method":"card","reference":"0e5d195479f7f29d3784cf1c4f174212","description":"Peach Points (JPY)","token":"tok_a260092271f305d4bf853053872c601d","brand":"visa","last4":"4242","refundedAmount":0,"createdAt":"2026-11-20T06:00:00Z","updatedAt":"2026-11-20T06:00:00Z"}', 1795154400000),
	('pp_0e5d195479f7f29d3784cf1c4f174212_authorize', '3960665f37b462243ecdc84233230ad7ec05de7d2b17438d8ae999791635819e', 200, '{"id":"pay_1236d74032a5a3b417369608","status":"captured","amount":3000,"currency":"JPY","method":"card","reference":"0e5d195479f7f29d3784cf1c4f174212","description":"Peach Points (JPY)","token":"tok_a260092271f305d4bf853053872c601d","brand":"visa","last4":"4242","refundedAmount":0,"createdAt":"2026-11-20T06:00:00Z","updatedAt":"2026-11-20T06:00:00Z"}', 1795154400000),
	('pp_a42934216243253b949fcc87df4501a3_create', '45d82ca3aa9ef943ae32caac205f9dc0c1b64bdb2f726875843e0502ffee80dd', 200, '{"id":"pay_03668c474ff159505a55e707","status":"created","amount":19800,"currency":"JPY","method":"card","reference":"a42934216243253b949fcc87df4501a3","description":"Kansai Discovery Pass","token":"tok_860deca7ed51a4891d3d8f06a4332749","brand":"visa","last4":"4242","refundedAmount":0,"createdAt":"2026-11-20T06:00:00Z","updatedAt":"2026-11-20T06:00:00Z"}', 1795154400000),
	('pp_a42934216243253b949fcc87df4501a3_authorize', 'e3d8118a3c5113d7c954987321eb2925f4f7f762ca033b9c4429c1893145a4ee', 200, '{"id":"pay_03668c474ff159505a55e707","status":"captured","amount":19800,"currency":"JPY","method":"card","reference":"a42934216243253b949fcc87df4501a3","description":"Kansai Discovery Pass","token":"tok_860deca7ed51a4891d3d8f06a4332749","brand":"visa","last4":"4242","refundedAmount":0,"createdAt":"2026-11-20T06:00:00Z","updatedAt":"2026-11-20T06:00:00Z"}', 1795154400000),
	('pp_f685f9dc4cc65c848ef42aa5b5ae6686_create', '9fdb3f02e252120921d014a33b1f20b4ed29b2f277c7dee966506387bc90a0d0', 200, '{"id":"pay_7ec6ed7dfbdffd4eb863b9c9","status":"created","amount":3000,"currency":"JPY","method":"card","reference":"f685f9dc4cc65c848ef42aa5b5ae6686","description":"Peach Points (JPY)","token":"tok_a9fdfd2c5731a5a424b55de71da9e2f4","brand":"visa","last4":"0119","refundedAmount":0,"createdAt":"2026-11-20T06:00:00Z","updatedAt":"2026-11-20T06:00:00Z"}', 1795154400000),
	('pp_f685f9dc4cc65c848ef42aa5b5ae6686_authorize', '24fb3b798f215d5ca0c7351540cd61fb851574c3068d289703cad7fe548310b2', 200, '{"id":"pay_7ec6ed7dfbdffd4eb863b9c9","status":"captured","amount":3000,"currency":"JPY","method":"card","reference":"f685f9dc4cc65c848ef42aa5b5ae6686","description":"Peach Points (JPY)","token":"tok_a9fdfd2c5731a5a424b55de71da9e2f4","brand":"visa","last4":"0119","refundedAmount":0,"createdAt":"2026-11-20T06:00:00Z","updatedAt":"2026-11-20T06:00:00Z"}', 1795154400000);


--
-- Data for Name: gw_keys; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--

INSERT INTO upgrade_fixture_schema.gw_keys VALUES
	('secret_key', 'sk_test_e1c1e0f5669424ea443c7e6dbffda7bef5ca565434fac388'),
	('webhook_secret', 'whsec_e9f5b3003503eff0ead679bb5c106820f6aff438b4f4878d');


--
-- Data for Name: gw_payments; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--

INSERT INTO upgrade_fixture_schema.gw_payments VALUES
	('pay_1236d74032a5a3b417369608', 'captured', 3000, 'JPY', 'card', '0e5d195479f7f29d3784cf1c4f174212', 'Peach Points (JPY)', 'http://127.0.0.1:42079/payment/peachpoints/0e5d195479f7f29d3784cf1c4f174212/result', 'tok_a260092271f305d4bf853053872c601d', 'visa', '4242', 'succeed', '', 0, NULL, 1795154400000, 1795154400000),
	('pay_03668c474ff159505a55e707', 'captured', 19800, 'JPY', 'card', 'a42934216243253b949fcc87df4501a3', 'Kansai Discovery Pass', 'http://127.0.0.1:42079/payment/coupon_ticket/a42934216243253b949fcc87df4501a3/result', 'tok_860deca7ed51a4891d3d8f06a4332749', 'visa', '4242', 'succeed', '', 0, NULL, 1795154400000, 1795154400000),
	('pay_7ec6ed7dfbdffd4eb863b9c9', 'captured', 3000, 'JPY', 'card', 'f685f9dc4cc65c848ef42aa5b5ae6686', 'Peach Points (JPY)', 'http://127.0.0.1:42079/payment/peachpoints/f685f9dc4cc65c848ef42aa5b5ae6686/result', 'tok_a9fdfd2c5731a5a424b55de71da9e2f4', 'visa', '0119', 'slow_authorize', '', 0, NULL, 1795154400000, 1795154400000);


--
-- Data for Name: gw_tokens; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--

INSERT INTO upgrade_fixture_schema.gw_tokens VALUES
	('tok_68411bad5c15c1dbc4a390556f7cd90a', 'visa', '4242', '29/11', 'TARO PEACH', 'succeed', 1795154400000),
	('tok_171bb0490931b6c5e171fde2a5e8e04d', 'amex', '0005', '29/11', 'TARO PEACH', 'succeed', 1795154400000),
	('tok_1ab80f9c1ac24df031c20c069214c81e', 'mastercard', '4444', '29/11', 'TARO PEACH', 'succeed', 1795154400000),
	('tok_7df45faa5eebbe7eee6623d8bc41489a', 'jcb', '0000', '29/11', 'HANAKO MOMO', 'succeed', 1795154400000),
	('tok_a260092271f305d4bf853053872c601d', 'visa', '4242', '28/11', 'TARO PEACH', 'succeed', 1795154400000),
	('tok_860deca7ed51a4891d3d8f06a4332749', 'visa', '4242', '28/11', 'TARO PEACH', 'succeed', 1795154400000),
	('tok_a9fdfd2c5731a5a424b55de71da9e2f4', 'visa', '0119', '28/11', 'TARO PEACH', 'slow_authorize', 1795154400000);


--
-- Data for Name: handover_redemptions; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--



--
-- Data for Name: mail_outbox; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--

INSERT INTO upgrade_fixture_schema.mail_outbox VALUES
	('9254520d92f562c9785b87d4d05fc6fe', 1795154400000, 'card_registered', 'demo@example.com', 'en', 'A credit card has been registered', 'Dear Hanako Yamada,

Your Visa card ending in 4242 has been saved to your payment methods.

If you did not do this, please contact us.

--
This e-mail was sent automatically to your registered address. Please do not reply to it.
', '<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>A credit card has been registered</title></head>
<body style="margin:0;padding:0;background:#f5f5f7;font-family:Arial,Helvetica,sans-serif;color:#222">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background:#fff;border-radius:8px">
<tr><td style="padding:20px 24px;background:#b0006e;color:#fff;font-size:18px;font-weight:bold;border-radius:8px 8px 0 0">Peach Members</td></tr>
<tr><td style="padding:24px;font-size:15px;line-height:1.6">
<p>Dear Hanako Yamada,</p>
<p>Your Visa card ending in 4242 has been saved to your payment methods.</p>
<p>If you did not do this, please contact us.</p>
</td></tr>
<tr><td style="padding:16px 24px;font-size:12px;color:#777;border-top:1px solid #eee">This e-mail was sent automatically to your registered address. Please do not reply to it.</td></tr>
</table></td></tr></table>
</body>
</html>
', '[]', 'held', 0, 1795154400000, '', NULL, '{}'),
	('0d85298898101b22ec70fdfbe9e847c3', 1795154400000, 'points_issued', 'demo@example.com', 'en', 'Your Peach Points have been issued', 'Dear Hanako Yamada,

Peach Points of JPY 3,000 have been issued to you.

You need the point number and PIN below to pay on the booking site. Please keep them safe.

Point number: 1183058011049891
PIN: 74331899
Balance: JPY 3,000
Expiry date: Nov 19, 2027

--
This e-mail was sent automatically to your registered address. Please do not reply to it.
', '<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Your Peach Points have been issued</title></head>
<body style="margin:0;padding:0;background:#f5f5f7;font-family:Arial,Helvetica,sans-serif;color:#222">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background:#fff;border-radius:8px">
<tr><td style="padding:20px 24px;background:#b0006e;color:#fff;font-size:18px;font-weight:bold;border-radius:8px 8px 0 0">Peach Members</td></tr>
<tr><td style="padding:24px;font-size:15px;line-height:1.6">
<p>Dear Hanako Yamada,</p>
<p>Peach Points of JPY 3,000 have been issued to you.</p>
<p>You need the point number and PIN below to pay on the booking site. Please keep them safe.</p>
<table role="presentation" cellpadding="4" cellspacing="0" style="border-collapse:collapse;margin:12px 0">
<tr><th align="left" style="padding-right:16px;color:#555;font-weight:normal">Point number</th><td>1183058011049891</td></tr>
<tr><th align="left" style="padding-right:16px;color:#555;font-weight:normal">PIN</th><td>74331899</td></tr>
<tr><th align="left" style="padding-right:16px;color:#555;font-weight:normal">Balance</th><td>JPY 3,000</td></tr>
<tr><th align="left" style="padding-right:16px;color:#555;font-weight:normal">Expiry date</th><td>Nov 19, 2027</td></tr>
</table>
</td></tr>
<tr><td style="padding:16px 24px;font-size:12px;color:#777;border-top:1px solid #eee">This e-mail was sent automatically to your registered address. Please do not reply to it.</td></tr>
</table></td></tr></table>
</body>
</html>
', '[]', 'held', 0, 1795154400000, '', NULL, '{}'),
	('010581277f1369006932a390e14dda4e', 1795154400000, 'coupon_ticket_purchased', 'demo@example.com', 'en', 'Your purchase of Kansai Discovery Pass', 'Dear Hanako Yamada,

Thank you for buying Kansai Discovery Pass. You can see your coupon pass on the members'' site at any time.

Pass: Kansai Discovery Pass
Boarding period: Dec 4, 2026 – Mar 4, 2027
Passengers: 1 passenger
Total with tax: JPY 19,800

--
This e-mail was sent automatically to your registered address. Please do not reply to it.
', '<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Your purchase of Kansai Discovery Pass</title></head>
<body style="margin:0;padding:0;background:#f5f5f7;font-family:Arial,Helvetica,sans-serif;color:#222">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background:#fff;border-radius:8px">
<tr><td style="padding:20px 24px;background:#b0006e;color:#fff;font-size:18px;font-weight:bold;border-radius:8px 8px 0 0">Peach Members</td></tr>
<tr><td style="padding:24px;font-size:15px;line-height:1.6">
<p>Dear Hanako Yamada,</p>
<p>Thank you for buying Kansai Discovery Pass. You can see your coupon pass on the members&#39; site at any time.</p>
<table role="presentation" cellpadding="4" cellspacing="0" style="border-collapse:collapse;margin:12px 0">
<tr><th align="left" style="padding-right:16px;color:#555;font-weight:normal">Pass</th><td>Kansai Discovery Pass</td></tr>
<tr><th align="left" style="padding-right:16px;color:#555;font-weight:normal">Boarding period</th><td>Dec 4, 2026 – Mar 4, 2027</td></tr>
<tr><th align="left" style="padding-right:16px;color:#555;font-weight:normal">Passengers</th><td>1 passenger</td></tr>
<tr><th align="left" style="padding-right:16px;color:#555;font-weight:normal">Total with tax</th><td>JPY 19,800</td></tr>
</table>
</td></tr>
<tr><td style="padding:16px 24px;font-size:12px;color:#777;border-top:1px solid #eee">This e-mail was sent automatically to your registered address. Please do not reply to it.</td></tr>
</table></td></tr></table>
</body>
</html>
', '[]', 'held', 0, 1795154400000, '', NULL, '{}');


--
-- Data for Name: members; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--

INSERT INTO upgrade_fixture_schema.members VALUES
	('00000000000000000000000000000002', 'demo2@example.com', 'demo2@example.com', '$argon2id$v=19$m=8,t=1,p=1$BSA2nR1EsJQLhsEsk3OJGA$mcHa6u8Lc+sxXllbjYt7gOvIae3I/eLks1PFXccSUPQ', 'Minjun', 'Kim', 'male', '1979-11-30', '01098765432', 'KR', '04524', 'Seoul Jung-gu', '110 Sejong-daero', 'M12345678', 'KR', 'KR', '2032-11-20', true, false, true, false, 'unknown', 'en', 1795154400000, 1795154400000, 5, NULL),
	('00000000000000000000000000000001', 'demo@example.com', 'demo@example.com', '$argon2id$v=19$m=8,t=1,p=1$BSA2nR1EsJQLhsEsk3OJGA$mcHa6u8Lc+sxXllbjYt7gOvIae3I/eLks1PFXccSUPQ', 'Hanako', 'Yamada', 'female', '1988-04-12', '0312345678', 'JP', '5490001', 'Osaka Izumisano', '1 Senshu-kuko-kita', 'TR1234567', 'JP', 'JP', '2032-11-20', true, false, true, false, 'unknown', 'en', 1795154400000, 1795154400000, 5, NULL);


--
-- Data for Name: notification_settings; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--



--
-- Data for Name: passengers; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--

INSERT INTO upgrade_fixture_schema.passengers VALUES
	('74a0e68fe7deba69d47deecc84081866', '00000000000000000000000000000001', 'ADULT', 'Taro', 'Yamada', 'male', '1986-09-03', '09012345678', 'taro@example.com', 'TR7654321', 'JP', 'JP', '2030-11-20', 1795154400000, 1795154400000),
	('8d83b66c78e2c7ff57ea1f4a820f4fff', '00000000000000000000000000000001', 'CHILD', 'Sakura', 'Yamada', 'female', '2020-10-11', '', '', 'TS1122334', 'JP', 'JP', '2030-11-20', 1795154400001, 1795154400001),
	('9b116ba94216357e9e1bac44acf7031c', '00000000000000000000000000000001', 'INFANT', 'Ren', 'Yamada', 'male', '2025-10-31', '', '', '', '', '', '', 1795154400002, 1795154400002),
	('67b4d838436b30ca00e4f28b3ad3b186', '00000000000000000000000000000002', 'ADULT', 'Jiwoo', 'Park', 'female', '1982-02-14', '01012345678', 'jiwoo@example.com', 'M87654321', 'KR', 'KR', '2030-11-20', 1795154400003, 1795154400003),
	('c9b00a94f8c1999e8a6f9df7edf170e5', '00000000000000000000000000000002', 'CHILD', 'Seojun', 'Kim', 'male', '2017-08-12', '', '', 'M11223344', 'KR', 'KR', '2030-11-20', 1795154400004, 1795154400004),
	('8fdf717a8ae339fd1cb151e062da0686', '00000000000000000000000000000002', 'INFANT', 'Haeun', 'Kim', 'female', '2026-05-04', '', '', '', '', '', '', 1795154400005, 1795154400005);


--
-- Data for Name: passkeys; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--



--
-- Data for Name: password_resets; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--



--
-- Data for Name: payment_discrepancies; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--



--
-- Data for Name: payment_jobs; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--



--
-- Data for Name: payment_processes; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--

INSERT INTO upgrade_fixture_schema.payment_processes VALUES
	('0e5d195479f7f29d3784cf1c4f174212', '00000000000000000000000000000001', 'upgrade-fixture-1795870876026525509-4', '1457943d625e8c01b38264f27c540ef9032f041aafc810901e158c50ffcf1936', 'peachpoints', 'settled', 'en', 3000, 'JPY', 'Peach Points (JPY)', '{"nominee":"Hanako Yamada","currencyCode":"JPY","amount":3000}', 'creditCard', '', 'ndhk', 'tok_a260092271f305d4bf853053872c601d', 'visa', '4242', '28/11', 'TARO PEACH', false, '', 'pay_1236d74032a5a3b417369608', 'captured', '', '', '{"pointNumber":"1183058011049891","issuedCurrencyAmount":3000,"currencyCode":"JPY","effectiveDate":"2026-11-20","expireDate":"2027-11-19","issuedName":"Hanako Yamada","paymentCurrencyAmount":3000,"paymentMethod":"creditCard"}', '{"pin":"74331899"}', 0, true, '', 0, 1795154411000, 1795156200000, 1795154400000, 1795154400000, 1795154400000, ''),
	('a42934216243253b949fcc87df4501a3', '00000000000000000000000000000001', 'upgrade-fixture-1795870876334082450-5', 'd870293afdf2a7fb5760cbdcd4b447ec9f37c3bda5c083075cc9bcffa75b9c61', 'coupon_ticket', 'settled', 'en', 19800, 'JPY', 'Kansai Discovery Pass', '{"productId":"cp-kansai","periodId":"cp-kansai-winter","name":"Kansai Discovery Pass","description":"Fly between Kansai and our domestic destinations with a book of flights.","period":{"id":"cp-kansai-winter","description":"Winter","availablePeriodToBoard":{"begin":"2026-12-04","end":"2027-03-04"},"availablePeriodToBook":{"begin":"2026-11-20","end":"2027-02-23"},"plan":{"lite":{"availableDaysAfterFirstUse":7,"availableNumberOfUse":4,"currencyCode":"JPY","pricePerPerson":19800},"standard":{"availableDaysAfterFirstUse":14,"availableNumberOfUse":8,"currencyCode":"JPY","pricePerPerson":32800}}},"fareType":"lite","plan":{"availableDaysAfterFirstUse":7,"availableNumberOfUse":4,"currencyCode":"JPY","pricePerPerson":19800},"purchaser":{"lastname":"Yamada","firstname":"Hanako","birthday":"1988-04-12","gender":"female"},"additionalPassengers":[],"items":1,"totalPassengersCount":1,"totalPrice":19800,"currencyCode":"JPY","international":true,"nameKey":"coupon.product.kansai.name","descriptionKey":"coupon.product.kansai.description"}', 'creditCard', '', 'ndhk', 'tok_860deca7ed51a4891d3d8f06a4332749', 'visa', '4242', '28/11', 'TARO PEACH', false, 'JPY', 'pay_03668c474ff159505a55e707', 'captured', '', '', '{"couponTicket":{"id":"b166753517f59b9818d173ea36275986","name":"Kansai Discovery Pass","description":"Fly between Kansai and our domestic destinations with a book of flights.","availablePeriodToBoard":{"begin":"2026-12-04","end":"2027-03-04"},"availablePeriodToBook":{"begin":"2026-11-20","end":"2027-02-23"},"fareType":"happy","currencyCode":"JPY","pricePerPerson":19800,"purchasedPrice":19800,"purchasedAt":"2026-11-20T06:00:00Z","purchaser":{"lastname":"Yamada","firstname":"Hanako","birthday":"1988-04-12","gender":"female"},"availableDaysAfterFirstUse":7,"availableNumberOfUse":4,"numberOfUsed":0,"items":1,"passengers":[],"refundFee":9000,"refundAmount":10800,"refundable":true,"disabled":false},"paymentMethod":"creditCard"}', '', 0, true, '', 0, 1795154411000, 1795156200000, 1795154400000, 1795154400000, 1795154400000, ''),
	('f685f9dc4cc65c848ef42aa5b5ae6686', '00000000000000000000000000000002', 'upgrade-fixture-1795870876438285884-6', 'e177eca1c10e4c836478370683c6524169e7f066e38a3956dc3a5938c4f62ad5', 'peachpoints', 'pending', 'en', 3000, 'JPY', 'Peach Points (JPY)', '{"nominee":"Taro Yamada","currencyCode":"JPY","amount":3000}', 'creditCard', '', 'ndhk', 'tok_a9fdfd2c5731a5a424b55de71da9e2f4', 'visa', '0119', '28/11', 'TARO PEACH', false, 'JPY', 'pay_7ec6ed7dfbdffd4eb863b9c9', 'created', '', '', '', '', 0, true, '', 0, 1795154403000, 1795156200000, 1795154400000, 1795154400000, NULL, '');


--
-- Data for Name: payment_refunds; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--



--
-- Data for Name: payment_webhook_events; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--



--
-- Data for Name: point_exchange_codes; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--

INSERT INTO upgrade_fixture_schema.point_exchange_codes VALUES
	('e68cba18b851d246acde11ff342b5933', 'DEMOCODE2026', '$argon2id$v=19$m=19456,t=2,p=1$R4vg+DvRWvYdIm+iQCFLFg$STE7UVnxnW/woGqknIv2/baY5EtlNPLVayQoUYRjSi0', 'JPY', 3000, false, NULL, NULL, 1795154400000),
	('02ddb5c8f9cf5080494dd2f1fb61bf5b', 'DEMOCODE2027', '$argon2id$v=19$m=19456,t=2,p=1$R4vg+DvRWvYdIm+iQCFLFg$STE7UVnxnW/woGqknIv2/baY5EtlNPLVayQoUYRjSi0', 'JPY', 1000, false, NULL, NULL, 1795154400000),
	('6ab01ecc7a7fe9f9d7ac6f1d1956e2ab', 'DEMOANA20260', '$argon2id$v=19$m=19456,t=2,p=1$R4vg+DvRWvYdIm+iQCFLFg$STE7UVnxnW/woGqknIv2/baY5EtlNPLVayQoUYRjSi0', 'JPY', 5000, true, NULL, NULL, 1795154400000);


--
-- Data for Name: point_ledger; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--

INSERT INTO upgrade_fixture_schema.point_ledger VALUES
	('1f084c86a5afb7e84f0fde880e096372', '4436289bff1d82ff48933a40bee51b96', 1, 'issue', 3000, 3000, 'demo', 1795154400000),
	('621a19b6d6a294770643012b128832b7', 'fdb3d6f757c23bf0e07e956cd179ef04', 1, 'issue', 50000, 50000, 'demo', 1795154400000),
	('7070b58f1c1bbda99725cfde2fb6f677', '6332c74036792437bf28321c9d43fdb5', 1, 'issue', 1000, 1000, 'demo', 1795154400000),
	('7de6c8188004a88b7a4325d4cc185d25', '3fed1b24e4d384696b116fac2ec0b77b', 1, 'issue', 200, 200, 'demo', 1795154400000),
	('e3cb31ce27cace3e39d9db8f73986717', '222aa2242174dfc0f651baee92676ff9', 1, 'issue', 5000, 5000, 'demo', 1795154400000),
	('ff8463c4ae48db6ba9e3cbae78fd2835', '8fcd8a9729be4245e6448f7426a24f4f', 1, 'issue', 5000, 5000, 'demo', 1795154400000),
	('72db0024b9c60704edd86aa10268ee4c', 'ef39438065d1c34f2a154c61eb7fcec9', 1, 'issue', 500, 500, 'demo', 1795154400000),
	('a0e70e8ef82218fefbc2c236abdd74ef', '343a53dd4ca3ff01395da4aa57afa3fa', 1, 'issue', 2000, 2000, 'demo', 1795154400000),
	('e8d3403c964476c9e5e7ed0c714901a6', '7ac2415f6d7793e0f8be9bf687cb3e6b', 1, 'issue', 300, 300, 'demo', 1795154400000),
	('ac4666913d510a873d4512322abdffbd', '936357da6519c3e24ceb15be4da2ff94', 1, 'issue', 1000, 1000, 'demo', 1795154400000),
	('f4331f9ba639c309de7518660a2fdef7', 'e74c1b2c3c8609545008c5a41168031c', 1, 'issue', 30000, 30000, 'demo', 1795154400000),
	('22c7ae618c71ef24b51614937f4043fc', '936357da6519c3e24ceb15be4da2ff94', 2, 'spend', -1000, 0, 'booking:HNK7Q2', 1795154400000),
	('71f39161785e723831068b07a074cc4f', 'e9045d3d67909360ebd9e2d216c9d960', 1, 'issue', 3000, 3000, 'payment:0e5d195479f7f29d3784cf1c4f174212', 1795154400000),
	('4fe6626483275871f950625763dd1576', 'bf62b2f3eb0694b8737bfe40f55213b6', 1, 'issue', 1000, 1000, 'operator', 1795154400000);


--
-- Data for Name: point_reminders; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--



--
-- Data for Name: point_vouchers; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--

INSERT INTO upgrade_fixture_schema.point_vouchers VALUES
	('4436289bff1d82ff48933a40bee51b96', '00000000000000000000000000000001', '7100000000000001', '7100000000000001', 'JPY', 3000, 3000, '2025-12-01', '2026-11-30', '2025-12-01', '2027-05-30', '$argon2id$v=19$m=19456,t=2,p=1$roE8BxSTnOPWCDsK2Q2evg$R6TY/r1QqY9wE4Hw/oYC8cyteQkJBV4r+TAlniGY9nE', 'ACTIVE', '[]', 'demo', 'HANAKO YAMADA', 0, '', NULL, NULL, NULL, 1795154400000),
	('fdb3d6f757c23bf0e07e956cd179ef04', '00000000000000000000000000000001', '7100000000000002', '7100000000000002', 'KRW', 50000, 50000, '2026-01-01', '2026-12-31', '2026-01-01', '2027-07-01', '$argon2id$v=19$m=19456,t=2,p=1$roE8BxSTnOPWCDsK2Q2evg$R6TY/r1QqY9wE4Hw/oYC8cyteQkJBV4r+TAlniGY9nE', 'ACTIVE', '[]', 'demo', 'HANAKO YAMADA', 0, '', NULL, NULL, NULL, 1795154400000),
	('6332c74036792437bf28321c9d43fdb5', '00000000000000000000000000000001', '7100000000000003', '7100000000000003', 'TWD', 1000, 1000, '2025-10-01', '2026-10-27', '2025-10-01', '2027-04-27', '$argon2id$v=19$m=19456,t=2,p=1$roE8BxSTnOPWCDsK2Q2evg$R6TY/r1QqY9wE4Hw/oYC8cyteQkJBV4r+TAlniGY9nE', 'ACTIVE', '[]', 'demo', 'HANAKO YAMADA', 0, '', NULL, NULL, NULL, 1795154400000),
	('3fed1b24e4d384696b116fac2ec0b77b', '00000000000000000000000000000001', '7100000000000004', '7100000000000004', 'CNY', 200, 200, '2025-09-01', '2026-09-28', '2025-09-01', '2027-03-28', '$argon2id$v=19$m=19456,t=2,p=1$roE8BxSTnOPWCDsK2Q2evg$R6TY/r1QqY9wE4Hw/oYC8cyteQkJBV4r+TAlniGY9nE', 'ACTIVE', '[]', 'demo', 'HANAKO YAMADA', 0, '', NULL, NULL, NULL, 1795154400000),
	('222aa2242174dfc0f651baee92676ff9', '00000000000000000000000000000001', '7100000000000005', '7100000000000005', 'JPY', 5000, 5000, '2026-02-20', '2027-02-20', '2026-02-20', '2027-08-20', '$argon2id$v=19$m=19456,t=2,p=1$roE8BxSTnOPWCDsK2Q2evg$R6TY/r1QqY9wE4Hw/oYC8cyteQkJBV4r+TAlniGY9nE', 'ACTIVE', '[{"type":"voucherMarketOriginDestinationRule","marketOriginDestinations":["KIX-ICN","ICN-KIX"]}]', 'demo', 'HANAKO YAMADA', 0, '', NULL, NULL, NULL, 1795154400000),
	('8fcd8a9729be4245e6448f7426a24f4f', '00000000000000000000000000000001', '7100000000000006', '7100000000000006', 'SGD', 5000, 5000, '2026-04-20', '2027-04-20', '2026-04-20', '2027-10-20', '$argon2id$v=19$m=19456,t=2,p=1$roE8BxSTnOPWCDsK2Q2evg$R6TY/r1QqY9wE4Hw/oYC8cyteQkJBV4r+TAlniGY9nE', 'ACTIVE', '[{"type":"voucherTravelDateRule","travelDates":[{"fromDate":"2026-12-20","toDate":"2027-01-20"},{"fromDate":"2027-03-20","toDate":"2027-04-20"}]}]', 'demo', 'HANAKO YAMADA', 0, '', NULL, NULL, NULL, 1795154400000),
	('ef39438065d1c34f2a154c61eb7fcec9', '00000000000000000000000000000001', '7100000000000007', '7100000000000007', 'HKD', 500, 500, '2026-06-20', '2027-06-20', '2026-06-20', '2027-12-20', '$argon2id$v=19$m=19456,t=2,p=1$roE8BxSTnOPWCDsK2Q2evg$R6TY/r1QqY9wE4Hw/oYC8cyteQkJBV4r+TAlniGY9nE', 'ACTIVE', '[{"type":"voucherFareClassRule","fareClassCodes":["simplePeach","valuePeach"]}]', 'demo', 'HANAKO YAMADA', 0, '', NULL, NULL, NULL, 1795154400000),
	('343a53dd4ca3ff01395da4aa57afa3fa', '00000000000000000000000000000001', '7100000000000008', '7100000000000008', 'THB', 2000, 2000, '2026-08-20', '2027-08-20', '2026-08-20', '2028-02-20', '$argon2id$v=19$m=19456,t=2,p=1$roE8BxSTnOPWCDsK2Q2evg$R6TY/r1QqY9wE4Hw/oYC8cyteQkJBV4r+TAlniGY9nE', 'ACTIVE', '[]', 'demo', 'HANAKO YAMADA', 0, '', NULL, NULL, NULL, 1795154400000),
	('7ac2415f6d7793e0f8be9bf687cb3e6b', '00000000000000000000000000000001', '7100000000000009', '7100000000000009', 'CNY', 300, 300, '2026-09-20', '2027-09-20', '2026-09-20', '2028-03-20', '$argon2id$v=19$m=19456,t=2,p=1$roE8BxSTnOPWCDsK2Q2evg$R6TY/r1QqY9wE4Hw/oYC8cyteQkJBV4r+TAlniGY9nE', 'ACTIVE', '[]', 'demo', 'HANAKO YAMADA', 0, '', NULL, NULL, NULL, 1795154400000),
	('e74c1b2c3c8609545008c5a41168031c', '00000000000000000000000000000002', '7200000000000001', '7200000000000001', 'KRW', 30000, 30000, '2026-03-20', '2027-03-20', '2026-03-20', '2027-09-20', '$argon2id$v=19$m=19456,t=2,p=1$roE8BxSTnOPWCDsK2Q2evg$R6TY/r1QqY9wE4Hw/oYC8cyteQkJBV4r+TAlniGY9nE', 'ACTIVE', '[]', 'demo', 'HANAKO YAMADA', 0, '', NULL, NULL, NULL, 1795154400000),
	('936357da6519c3e24ceb15be4da2ff94', '00000000000000000000000000000001', '7100000000000010', '7100000000000010', 'JPY', 1000, 0, '2026-05-20', '2027-05-20', '2026-05-20', '2027-11-20', '$argon2id$v=19$m=19456,t=2,p=1$roE8BxSTnOPWCDsK2Q2evg$R6TY/r1QqY9wE4Hw/oYC8cyteQkJBV4r+TAlniGY9nE', 'ACTIVE', '[]', 'demo', 'HANAKO YAMADA', 0, '', NULL, NULL, NULL, 1795154400000),
	('e9045d3d67909360ebd9e2d216c9d960', '00000000000000000000000000000001', '1183058011049891', '1183058011049891', 'JPY', 3000, 3000, '2026-11-20', '2027-11-19', '2026-11-20', '2028-05-19', '$hmac-sha256$k=5d023aca$tQoci5SEXsWLVkAXIhMxig$341TW1o2CpAX7X+BH04xiFBD5nUH+WSc+IGUFKIyhUs', 'ACTIVE', '[]', 'purchase', 'Hanako Yamada', 3000, 'creditCard', '0e5d195479f7f29d3784cf1c4f174212', NULL, NULL, 1795154400000),
	('bf62b2f3eb0694b8737bfe40f55213b6', '00000000000000000000000000000001', '9116241462383422', '9116241462383422', 'TWD', 1000, 1000, '2025-11-20', '2026-11-19', '2025-11-20', '2027-05-19', '$hmac-sha256$k=5d023aca$DK+e/ENP5VFw9AeZkP3Qxg$d4+peq2PNoqJJFo3iaBJyPz0bTsCA30+AfvhWrplbsw', 'ACTIVE', '[]', 'issue', '', 0, '', NULL, NULL, NULL, 1795154400000);


--
-- Data for Name: rate_counters; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--

INSERT INTO upgrade_fixture_schema.rate_counters VALUES
	('login:acct:demo@example.com', 1795154400000, 0),
	('login:addr:127.0.0.1', 1795154400000, 0),
	('login:acct:demo2@example.com', 1795154400000, 0);


--
-- Data for Name: reservation_passengers; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--

INSERT INTO upgrade_fixture_schema.reservation_passengers VALUES
	('9a315437abd01ce71a9a3ead34133acd', 0, 'YAMADA', 'HANAKO', 'ADULT'),
	('9a315437abd01ce71a9a3ead34133acd', 1, 'YAMADA', 'TARO', 'ADULT'),
	('4d0f96d0dd885414bac0c8380e99daff', 0, 'YAMADA', 'HANAKO', 'ADULT'),
	('7ebd745adf4824a9b4cc1cb9cb0d6556', 0, 'YAMADA', 'HANAKO', 'ADULT'),
	('f2cf6195061b2ae7ee9706abfef5a3d6', 0, 'YAMADA', 'HANAKO', 'ADULT'),
	('7ebe83bbc0399b63b6112581c4c470c5', 0, 'YAMADA', 'HANAKO', 'ADULT'),
	('7ebe83bbc0399b63b6112581c4c470c5', 1, 'YAMADA', 'TARO', 'ADULT'),
	('cb01b99f57ff1b71ef6fb7564012895d', 0, 'YAMADA', 'HANAKO', 'ADULT'),
	('deccb9ceb87b9df2db7b4624fd6cfd9c', 0, 'YAMADA', 'HANAKO', 'ADULT'),
	('646e5637115eea5655f5cdbd72267a5c', 0, 'YAMADA', 'HANAKO', 'ADULT'),
	('ebd7634fca7120b214c75e08f4fbc268', 0, 'KIM', 'MINJUN', 'ADULT'),
	('4661942550464f97eb687ba52e0658b3', 0, 'KIM', 'MINJUN', 'ADULT'),
	('144e2f43cf44f035bc0f376bc7e5ae5a', 0, 'KIM', 'MINJUN', 'ADULT'),
	('5b5aff763f44851d06b73a3694a21fe4', 0, 'YAMADA', 'HANAKO', 'ADULT'),
	('a091cbe03fa69f85a1490f00623b9c8d', 0, 'KIM', 'MINJUN', 'ADULT'),
	('d25cf752ee99892ce30aa39de3d8b76e', 0, 'YAMADA', 'HANAKO', 'ADULT'),
	('6996822294674db184036ca4da8c2ee6', 0, 'YAMADA', 'HANAKO', 'ADULT'),
	('0497693c3e8bc6c86fd4d1226ec4d1c2', 0, 'YAMADA', 'HANAKO', 'ADULT'),
	('298b75dcf41140b64617936c5ba49ef9', 0, 'YAMADA', 'HANAKO', 'ADULT'),
	('217926db6460c9e24b60546ddf915294', 0, 'YAMADA', 'HANAKO', 'ADULT'),
	('aeaf40db0fa1a83d45eb2f660f7c6b65', 0, 'YAMADA', 'HANAKO', 'ADULT'),
	('c0582d83ede418594409269e3bce1bf5', 0, 'YAMADA', 'HANAKO', 'ADULT'),
	('d4652f7957cbd45a0ea571260968a10c', 0, 'YAMADA', 'HANAKO', 'ADULT');


--
-- Data for Name: reservation_segments; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--

INSERT INTO upgrade_fixture_schema.reservation_segments VALUES
	('9a315437abd01ce71a9a3ead34133acd', '1', 0, 'CONFIRMED', 'MM001', '001', true, 'KIX', '1', '12', 'ICN', '1', 1795995000000, NULL, NULL, 1796001600000, NULL, NULL, 'ON_TIME', 0, '', NULL, NULL, ''),
	('9a315437abd01ce71a9a3ead34133acd', '2', 1, 'CONFIRMED', 'MM002', '002', false, 'ICN', '1', '', 'KIX', '1', 1796359500000, NULL, NULL, 1796365800000, NULL, NULL, 'ON_TIME', 0, '', NULL, NULL, ''),
	('4d0f96d0dd885414bac0c8380e99daff', '1', 0, 'CONFIRMED', 'MM101', '101', true, 'NRT', '3', '148', 'TPE', '1', 1795392900000, 1795398600000, NULL, 1795407300000, 1795413000000, NULL, 'NOT_YET_DEPARTED_WITH_DELAY', 0, '', NULL, NULL, ''),
	('7ebd745adf4824a9b4cc1cb9cb0d6556', '1', 0, 'CONFIRMED', 'MM801', '801', false, 'KIX', '1', '', 'BKK', '1', 1796829600000, NULL, NULL, 1796852700000, NULL, NULL, 'CANCELLED', 0, '', NULL, NULL, ''),
	('f2cf6195061b2ae7ee9706abfef5a3d6', '1', 0, 'CONFIRMED', 'MM801', '801', false, 'KIX', '1', '', 'SIN', '1', 1792509600000, NULL, 1792509600000, 1792533600000, NULL, 1792533600000, 'ARRIVED', 0, '', NULL, NULL, ''),
	('f2cf6195061b2ae7ee9706abfef5a3d6', '2', 1, 'CONFIRMED', 'MM802', '802', false, 'SIN', '1', '', 'KIX', '1', 1792945800000, NULL, 1792948800000, 1792969500000, NULL, 1792972500000, 'DEPARTED_WITH_DELAY', 0, '', NULL, NULL, ''),
	('7ebe83bbc0399b63b6112581c4c470c5', '1', 0, 'Cancelled', 'MM551', '551', false, 'HND', '1', '', 'OKA', '1', 1798578000000, NULL, NULL, 1798587900000, NULL, NULL, 'ON_TIME', 0, '', NULL, NULL, ''),
	('7ebe83bbc0399b63b6112581c4c470c5', '2', 1, 'CONFIRMED', 'MM561', '561', true, 'OKA', '1', '', 'ISG', '1', 1798679400000, NULL, NULL, 1798683000000, NULL, NULL, 'ON_TIME', 0, '', NULL, NULL, ''),
	('cb01b99f57ff1b71ef6fb7564012895d', '1', 0, 'CONFIRMED', 'MM153', '153', false, 'FUK', '1', '', 'ICN', '1', 1773536400000, NULL, 1773536400000, 1773541500000, NULL, 1773541500000, 'ARRIVED', 0, '', NULL, NULL, ''),
	('deccb9ceb87b9df2db7b4624fd6cfd9c', '1', 0, 'CONFIRMED', 'MM071', '071', false, 'KIX', '1', '', 'HKG', '1', 1794702600000, NULL, 1794702600000, 1794717600000, NULL, 1794717600000, 'ARRIVED', 0, '', NULL, NULL, ''),
	('646e5637115eea5655f5cdbd72267a5c', '1', 0, 'CONFIRMED', 'MM171', '171', true, 'KIX', '1', '', 'CTS', '1', 1800309900000, NULL, NULL, 1800317400000, NULL, NULL, 'ON_TIME', 0, '', NULL, NULL, ''),
	('ebd7634fca7120b214c75e08f4fbc268', '1', 0, 'CONFIRMED', 'MM002', '002', false, 'ICN', '1', '', 'KIX', '1', 1795754700000, NULL, NULL, 1795761000000, NULL, NULL, 'ON_TIME', 0, '', NULL, NULL, ''),
	('4661942550464f97eb687ba52e0658b3', '1', 0, 'CONFIRMED', 'MM172', '172', false, 'PUS', '1', '', 'KIX', '1', 1793845800000, NULL, 1793847000000, 1793851200000, NULL, 1793852400000, 'DEPARTED_WITH_DELAY', 0, '', NULL, NULL, ''),
	('144e2f43cf44f035bc0f376bc7e5ae5a', '1', 0, 'CONFIRMED', 'MM291', '291', false, 'ICN', '1', '', 'OKA', '1', 1777852800000, NULL, 1777852800000, 1777860900000, NULL, 1777860900000, 'ARRIVED', 0, '', NULL, NULL, ''),
	('5b5aff763f44851d06b73a3694a21fe4', '1', 0, 'CONFIRMED', 'MM105', '105', false, 'KIX', '1', '', 'TPE', '1', 1797292800000, NULL, NULL, 1797303000000, NULL, NULL, 'ON_TIME', 0, '', NULL, NULL, ''),
	('a091cbe03fa69f85a1490f00623b9c8d', '1', 0, 'CONFIRMED', 'MM008', '008', false, 'GMP', '1', '', 'HND', '1', 1797732000000, NULL, NULL, 1797739800000, NULL, NULL, 'ON_TIME', 0, '', NULL, NULL, ''),
	('d25cf752ee99892ce30aa39de3d8b76e', '1', 0, 'CONFIRMED', 'MM301', '301', false, 'KIX', '1', '', 'FUK', '1', 1781302200000, NULL, 1781302200000, 1781307000000, NULL, 1781307000000, 'ARRIVED', 0, '', NULL, NULL, ''),
	('6996822294674db184036ca4da8c2ee6', '1', 0, 'CONFIRMED', 'MM302', '302', false, 'FUK', '1', '', 'KIX', '1', 1782774600000, NULL, 1782774600000, 1782779400000, NULL, 1782779400000, 'ARRIVED', 0, '', NULL, NULL, ''),
	('0497693c3e8bc6c86fd4d1226ec4d1c2', '1', 0, 'CONFIRMED', 'MM303', '303', false, 'KIX', '1', '', 'OKA', '1', 1784247000000, NULL, 1784247000000, 1784251800000, NULL, 1784251800000, 'ARRIVED', 0, '', NULL, NULL, ''),
	('298b75dcf41140b64617936c5ba49ef9', '1', 0, 'CONFIRMED', 'MM304', '304', false, 'OKA', '1', '', 'KIX', '1', 1785719400000, NULL, 1785719400000, 1785724200000, NULL, 1785724200000, 'ARRIVED', 0, '', NULL, NULL, ''),
	('217926db6460c9e24b60546ddf915294', '1', 0, 'CONFIRMED', 'MM305', '305', false, 'KIX', '1', '', 'SDJ', '1', 1787191800000, NULL, 1787191800000, 1787196600000, NULL, 1787196600000, 'ARRIVED', 0, '', NULL, NULL, ''),
	('aeaf40db0fa1a83d45eb2f660f7c6b65', '1', 0, 'CONFIRMED', 'MM306', '306', false, 'SDJ', '1', '', 'KIX', '1', 1788664200000, NULL, 1788664200000, 1788669000000, NULL, 1788669000000, 'ARRIVED', 0, '', NULL, NULL, ''),
	('c0582d83ede418594409269e3bce1bf5', '1', 0, 'CONFIRMED', 'MM307', '307', false, 'KIX', '1', '', 'NGS', '1', 1790136600000, NULL, 1790136600000, 1790141400000, NULL, 1790141400000, 'ARRIVED', 0, '', NULL, NULL, ''),
	('d4652f7957cbd45a0ea571260968a10c', '1', 0, 'CONFIRMED', 'MM308', '308', false, 'NGS', '1', '', 'KIX', '1', 1791609000000, NULL, 1791609000000, 1791613800000, NULL, 1791613800000, 'ARRIVED', 0, '', NULL, NULL, '');


--
-- Data for Name: reservations; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--

INSERT INTO upgrade_fixture_schema.reservations VALUES
	('9a315437abd01ce71a9a3ead34133acd', 'HNK7Q2', '00000000000000000000000000000001', 1793448240000, 'CONFIRMED', 'JPY', 38760, '', 1795995000000, 1796359500000, 1795154400000, '[["1", "CONFIRMED", "MM001", "001", true, "KIX", "1", "12", "ICN", "1", 1795995000000, null, null, 1796001600000, null, null, "ON_TIME", 0, "", null, null, ""], ["2", "CONFIRMED", "MM002", "002", false, "ICN", "1", "", "KIX", "1", 1796359500000, null, null, 1796365800000, null, null, "ON_TIME", 0, "", null, null, ""]]', '[["YAMADA", "HANAKO", "ADULT"], ["YAMADA", "TARO", "ADULT"]]'),
	('4d0f96d0dd885414bac0c8380e99daff', 'TPE3XY', '00000000000000000000000000000001', 1791257400000, 'CONFIRMED', 'JPY', 21990, '', 1795392900000, 1795392900000, 1795154400000, '[["1", "CONFIRMED", "MM101", "101", true, "NRT", "3", "148", "TPE", "1", 1795392900000, 1795398600000, null, 1795407300000, 1795413000000, null, "NOT_YET_DEPARTED_WITH_DELAY", 0, "", null, null, ""]]', '[["YAMADA", "HANAKO", "ADULT"]]'),
	('7ebd745adf4824a9b4cc1cb9cb0d6556', 'BKK5LM', '00000000000000000000000000000001', 1789984800000, 'CONFIRMED', 'JPY', 27480, '', 1796829600000, 1796829600000, 1795154400000, '[["1", "CONFIRMED", "MM801", "801", false, "KIX", "1", "", "BKK", "1", 1796829600000, null, null, 1796852700000, null, null, "CANCELLED", 0, "", null, null, ""]]', '[["YAMADA", "HANAKO", "ADULT"]]'),
	('f2cf6195061b2ae7ee9706abfef5a3d6', 'SIN8AB', '00000000000000000000000000000001', 1787355900000, 'CONFIRMED', 'SGD', 41800, '', 1792509600000, 1792945800000, 1795154400000, '[["1", "CONFIRMED", "MM801", "801", false, "KIX", "1", "", "SIN", "1", 1792509600000, null, 1792509600000, 1792533600000, null, 1792533600000, "ARRIVED", 0, "", null, null, ""], ["2", "CONFIRMED", "MM802", "802", false, "SIN", "1", "", "KIX", "1", 1792945800000, null, 1792948800000, 1792969500000, null, 1792972500000, "DEPARTED_WITH_DELAY", 0, "", null, null, ""]]', '[["YAMADA", "HANAKO", "ADULT"]]'),
	('7ebe83bbc0399b63b6112581c4c470c5', 'OKA2CD', '00000000000000000000000000000001', 1794316200000, 'CONFIRMED', 'JPY', 31200, '', 1798578000000, 1798679400000, 1795154400000, '[["1", "Cancelled", "MM551", "551", false, "HND", "1", "", "OKA", "1", 1798578000000, null, null, 1798587900000, null, null, "ON_TIME", 0, "", null, null, ""], ["2", "CONFIRMED", "MM561", "561", true, "OKA", "1", "", "ISG", "1", 1798679400000, null, null, 1798683000000, null, null, "ON_TIME", 0, "", null, null, ""]]', '[["YAMADA", "HANAKO", "ADULT"], ["YAMADA", "TARO", "ADULT"]]'),
	('cb01b99f57ff1b71ef6fb7564012895d', 'OLD9ZZ', '00000000000000000000000000000001', 1769220000000, 'CONFIRMED', 'JPY', 9990, '', 1773536400000, 1773536400000, 1795154400000, '[["1", "CONFIRMED", "MM153", "153", false, "FUK", "1", "", "ICN", "1", 1773536400000, null, 1773536400000, 1773541500000, null, 1773541500000, "ARRIVED", 0, "", null, null, ""]]', '[["YAMADA", "HANAKO", "ADULT"]]'),
	('deccb9ceb87b9df2db7b4624fd6cfd9c', 'HKG6GH', '00000000000000000000000000000001', 1791681600000, 'CONFIRMED', 'HKD', 128000, '', 1794702600000, 1794702600000, 1795154400000, '[["1", "CONFIRMED", "MM071", "071", false, "KIX", "1", "", "HKG", "1", 1794702600000, null, 1794702600000, 1794717600000, null, 1794717600000, "ARRIVED", 0, "", null, null, ""]]', '[["YAMADA", "HANAKO", "ADULT"]]'),
	('646e5637115eea5655f5cdbd72267a5c', 'CTS4EF', '00000000000000000000000000000001', 1795147200000, 'CONFIRMED', 'JPY', 8490, '', 1800309900000, 1800309900000, 1795154400000, '[["1", "CONFIRMED", "MM171", "171", true, "KIX", "1", "", "CTS", "1", 1800309900000, null, null, 1800317400000, null, null, "ON_TIME", 0, "", null, null, ""]]', '[["YAMADA", "HANAKO", "ADULT"]]'),
	('ebd7634fca7120b214c75e08f4fbc268', 'KIM1AA', '00000000000000000000000000000002', 1793836800000, 'CONFIRMED', 'KRW', 189000, '', 1795754700000, 1795754700000, 1795154400000, '[["1", "CONFIRMED", "MM002", "002", false, "ICN", "1", "", "KIX", "1", 1795754700000, null, null, 1795761000000, null, null, "ON_TIME", 0, "", null, null, ""]]', '[["KIM", "MINJUN", "ADULT"]]'),
	('4661942550464f97eb687ba52e0658b3', 'KIM2BB', '00000000000000000000000000000002', 1790812800000, 'CONFIRMED', 'KRW', 145000, '', 1793845800000, 1793845800000, 1795154400000, '[["1", "CONFIRMED", "MM172", "172", false, "PUS", "1", "", "KIX", "1", 1793845800000, null, 1793847000000, 1793851200000, null, 1793852400000, "DEPARTED_WITH_DELAY", 0, "", null, null, ""]]', '[["KIM", "MINJUN", "ADULT"]]'),
	('5b5aff763f44851d06b73a3694a21fe4', 'ADD7YM', NULL, 1794895200000, 'CONFIRMED', 'JPY', 15990, 'demo@example.com', 1797292800000, 1797292800000, 1795154400000, '[["1", "CONFIRMED", "MM105", "105", false, "KIX", "1", "", "TPE", "1", 1797292800000, null, null, 1797303000000, null, null, "ON_TIME", 0, "", null, null, ""]]', '[["YAMADA", "HANAKO", "ADULT"]]'),
	('144e2f43cf44f035bc0f376bc7e5ae5a', 'KIM3CC', '00000000000000000000000000000002', 1775260800000, 'CONFIRMED', 'KRW', 210000, '', 1777852800000, 1777852800000, 1795154400000, '[["1", "CONFIRMED", "MM291", "291", false, "ICN", "1", "", "OKA", "1", 1777852800000, null, 1777852800000, 1777860900000, null, 1777860900000, "ARRIVED", 0, "", null, null, ""]]', '[["KIM", "MINJUN", "ADULT"]]'),
	('a091cbe03fa69f85a1490f00623b9c8d', 'ADD8KM', NULL, 1794808800000, 'CONFIRMED', 'KRW', 99000, 'demo2@example.com', 1797732000000, 1797732000000, 1795154400000, '[["1", "CONFIRMED", "MM008", "008", false, "GMP", "1", "", "HND", "1", 1797732000000, null, null, 1797739800000, null, null, "ON_TIME", 0, "", null, null, ""]]', '[["KIM", "MINJUN", "ADULT"]]'),
	('d25cf752ee99892ce30aa39de3d8b76e', 'HIS1TA', '00000000000000000000000000000001', 1780312500000, 'CONFIRMED', 'JPY', 5990, '', 1781302200000, 1781302200000, 1795154400000, '[["1", "CONFIRMED", "MM301", "301", false, "KIX", "1", "", "FUK", "1", 1781302200000, null, 1781302200000, 1781307000000, null, 1781307000000, "ARRIVED", 0, "", null, null, ""]]', '[["YAMADA", "HANAKO", "ADULT"]]'),
	('6996822294674db184036ca4da8c2ee6', 'HIS2TB', '00000000000000000000000000000001', 1781781300000, 'CONFIRMED', 'JPY', 6490, '', 1782774600000, 1782774600000, 1795154400000, '[["1", "CONFIRMED", "MM302", "302", false, "FUK", "1", "", "KIX", "1", 1782774600000, null, 1782774600000, 1782779400000, null, 1782779400000, "ARRIVED", 0, "", null, null, ""]]', '[["YAMADA", "HANAKO", "ADULT"]]'),
	('0497693c3e8bc6c86fd4d1226ec4d1c2', 'HIS3TC', '00000000000000000000000000000001', 1783250100000, 'CONFIRMED', 'JPY', 6990, '', 1784247000000, 1784247000000, 1795154400000, '[["1", "CONFIRMED", "MM303", "303", false, "KIX", "1", "", "OKA", "1", 1784247000000, null, 1784247000000, 1784251800000, null, 1784251800000, "ARRIVED", 0, "", null, null, ""]]', '[["YAMADA", "HANAKO", "ADULT"]]'),
	('298b75dcf41140b64617936c5ba49ef9', 'HIS4TD', '00000000000000000000000000000001', 1784718900000, 'CONFIRMED', 'JPY', 7490, '', 1785719400000, 1785719400000, 1795154400000, '[["1", "CONFIRMED", "MM304", "304", false, "OKA", "1", "", "KIX", "1", 1785719400000, null, 1785719400000, 1785724200000, null, 1785724200000, "ARRIVED", 0, "", null, null, ""]]', '[["YAMADA", "HANAKO", "ADULT"]]'),
	('217926db6460c9e24b60546ddf915294', 'HIS5TE', '00000000000000000000000000000001', 1786187700000, 'CONFIRMED', 'JPY', 7990, '', 1787191800000, 1787191800000, 1795154400000, '[["1", "CONFIRMED", "MM305", "305", false, "KIX", "1", "", "SDJ", "1", 1787191800000, null, 1787191800000, 1787196600000, null, 1787196600000, "ARRIVED", 0, "", null, null, ""]]', '[["YAMADA", "HANAKO", "ADULT"]]'),
	('aeaf40db0fa1a83d45eb2f660f7c6b65', 'HIS6TF', '00000000000000000000000000000001', 1787656500000, 'CONFIRMED', 'JPY', 8490, '', 1788664200000, 1788664200000, 1795154400000, '[["1", "CONFIRMED", "MM306", "306", false, "SDJ", "1", "", "KIX", "1", 1788664200000, null, 1788664200000, 1788669000000, null, 1788669000000, "ARRIVED", 0, "", null, null, ""]]', '[["YAMADA", "HANAKO", "ADULT"]]'),
	('c0582d83ede418594409269e3bce1bf5', 'HIS7TG', '00000000000000000000000000000001', 1789125300000, 'CONFIRMED', 'JPY', 8990, '', 1790136600000, 1790136600000, 1795154400000, '[["1", "CONFIRMED", "MM307", "307", false, "KIX", "1", "", "NGS", "1", 1790136600000, null, 1790136600000, 1790141400000, null, 1790141400000, "ARRIVED", 0, "", null, null, ""]]', '[["YAMADA", "HANAKO", "ADULT"]]'),
	('d4652f7957cbd45a0ea571260968a10c', 'HIS8TH', '00000000000000000000000000000001', 1790594100000, 'CONFIRMED', 'JPY', 9490, '', 1791609000000, 1791609000000, 1795154400000, '[["1", "CONFIRMED", "MM308", "308", false, "NGS", "1", "", "KIX", "1", 1791609000000, null, 1791609000000, 1791613800000, null, 1791613800000, "ARRIVED", 0, "", null, null, ""]]', '[["YAMADA", "HANAKO", "ADULT"]]');


--
-- Data for Name: saved_cards; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--

INSERT INTO upgrade_fixture_schema.saved_cards VALUES
	('ndhk', 'tok_demo_expired_visa', '00000000000000000000000000000001', 'visa', '1881', '26/09', 'TARO PEACH', 'JPY', 1760594400000),
	('ndhk', 'tok_68411bad5c15c1dbc4a390556f7cd90a', '00000000000000000000000000000001', 'visa', '4242', '29/11', 'TARO PEACH', 'JPY', 1795118400000),
	('ndhk', 'tok_171bb0490931b6c5e171fde2a5e8e04d', '00000000000000000000000000000001', 'amex', '0005', '29/11', 'TARO PEACH', 'ALL', 1795122000000),
	('ndhk', 'tok_1ab80f9c1ac24df031c20c069214c81e', '00000000000000000000000000000001', 'mastercard', '4444', '29/11', 'TARO PEACH', 'NON_JPY', 1795125600000),
	('ndhk', 'tok_7df45faa5eebbe7eee6623d8bc41489a', '00000000000000000000000000000002', 'jcb', '0000', '29/11', 'HANAKO MOMO', 'JPY', 1795129200000),
	('ndhk', 'tok_a260092271f305d4bf853053872c601d', '00000000000000000000000000000001', 'visa', '4242', '28/11', 'TARO PEACH', 'JPY', 1795154400000);


--
-- Data for Name: security_events; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--

INSERT INTO upgrade_fixture_schema.security_events VALUES
	('f308b724a4a02cfe93701fc3a73701e2', '00000000000000000000000000000001', 'sign_in', 1795154400000, '127.0.0.1', 'Go-http-client/1.1', 'go-http-client||unknown'),
	('8e78ab63c5efaa70fb2fab42b04ba676', '00000000000000000000000000000002', 'sign_in', 1795154400000, '127.0.0.1', 'Go-http-client/1.1', 'go-http-client||unknown');


--
-- Data for Name: sessions; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--

INSERT INTO upgrade_fixture_schema.sessions VALUES
	('a01a56077e60e9d920ec416af437cc3b46cc25c2dc6bded70b667f8c1b58273d', '00000000000000000000000000000001', 'IuIF-nVMbOKTy4aM', 1795154400000, 1795154400000, '127.0.0.1', 'Go-http-client/1.1'),
	('5834999c50c2867a63c5ede1c7c7054a0d0999484a642bd95eb31e7fe6508356', '00000000000000000000000000000002', 'dJXwangAPhW0wMNn', 1795154400000, 1795154400000, '127.0.0.1', 'Go-http-client/1.1');


--
-- Data for Name: settings; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--

INSERT INTO upgrade_fixture_schema.settings VALUES
	('secret:csrf', '"bTwVPOz6XKdn+B0mzGfQDCAvFH3tP2nAa4GuDUHTegQ="', 1795154400000),
	('secret:mail-unsubscribe', '"W/vaRhNiFAjc0CX82jfggvBjo1NdszjTKp1oTeQjmfA="', 1795154400000),
	('secret:booking-handover', '"G1ex3SckQDw/H030nwAiA4NNmjm3jGkFE35xlhodQN8="', 1795154400000),
	('demo:cards:done', '"yes"', 1795154400000),
	('secret:voucher-pin', '"E4VVfnA8K2kP5KaYADEXStF2pu/Pt/OabSwLWrcC3m4="', 1795154400000),
	('coupon_ticket_status', '{"isCouponTicketPublic":true}', 1795154400000);


--
-- Data for Name: webauthn_challenges; Type: TABLE DATA; Schema: upgrade_fixture_schema; Owner: -
--



--
-- Name: gateway_goose_version_id_seq; Type: SEQUENCE SET; Schema: upgrade_fixture_schema; Owner: -
--

SELECT pg_catalog.setval('upgrade_fixture_schema.gateway_goose_version_id_seq', 3, true);


--
-- Name: goose_db_version_id_seq; Type: SEQUENCE SET; Schema: upgrade_fixture_schema; Owner: -
--

SELECT pg_catalog.setval('upgrade_fixture_schema.goose_db_version_id_seq', 25, true);


--
-- Name: account_deletions account_deletions_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.account_deletions
    ADD CONSTRAINT account_deletions_pkey PRIMARY KEY (member_id);


--
-- Name: account_deletions account_deletions_token_hash_key; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.account_deletions
    ADD CONSTRAINT account_deletions_token_hash_key UNIQUE (token_hash);


--
-- Name: calendar_feeds calendar_feeds_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.calendar_feeds
    ADD CONSTRAINT calendar_feeds_pkey PRIMARY KEY (member_id);


--
-- Name: calendar_feeds calendar_feeds_token_hash_key; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.calendar_feeds
    ADD CONSTRAINT calendar_feeds_token_hash_key UNIQUE (token_hash);


--
-- Name: coupon_passengers coupon_passengers_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.coupon_passengers
    ADD CONSTRAINT coupon_passengers_pkey PRIMARY KEY (coupon_id, "position");


--
-- Name: coupon_periods coupon_periods_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.coupon_periods
    ADD CONSTRAINT coupon_periods_pkey PRIMARY KEY (id);


--
-- Name: coupon_prepared coupon_prepared_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.coupon_prepared
    ADD CONSTRAINT coupon_prepared_pkey PRIMARY KEY (member_id, request_id);


--
-- Name: coupon_products coupon_products_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.coupon_products
    ADD CONSTRAINT coupon_products_pkey PRIMARY KEY (id);


--
-- Name: coupons coupons_payment_process_id_key; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.coupons
    ADD CONSTRAINT coupons_payment_process_id_key UNIQUE (payment_process_id);


--
-- Name: coupons coupons_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.coupons
    ADD CONSTRAINT coupons_pkey PRIMARY KEY (id);


--
-- Name: email_changes email_changes_confirm_hash_key; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.email_changes
    ADD CONSTRAINT email_changes_confirm_hash_key UNIQUE (confirm_hash);


--
-- Name: email_changes email_changes_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.email_changes
    ADD CONSTRAINT email_changes_pkey PRIMARY KEY (id);


--
-- Name: email_changes email_changes_undo_hash_key; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.email_changes
    ADD CONSTRAINT email_changes_undo_hash_key UNIQUE (undo_hash);


--
-- Name: exception_reports exception_reports_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.exception_reports
    ADD CONSTRAINT exception_reports_pkey PRIMARY KEY (id);


--
-- Name: flight_alerts flight_alerts_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.flight_alerts
    ADD CONSTRAINT flight_alerts_pkey PRIMARY KEY (flight, flight_date, member_id);


--
-- Name: flight_events flight_events_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.flight_events
    ADD CONSTRAINT flight_events_pkey PRIMARY KEY (id);


--
-- Name: flight_states flight_states_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.flight_states
    ADD CONSTRAINT flight_states_pkey PRIMARY KEY (flight, flight_date);


--
-- Name: gateway_goose_version gateway_goose_version_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.gateway_goose_version
    ADD CONSTRAINT gateway_goose_version_pkey PRIMARY KEY (id);


--
-- Name: gogo_pass_draws gogo_pass_draws_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.gogo_pass_draws
    ADD CONSTRAINT gogo_pass_draws_pkey PRIMARY KEY (id);


--
-- Name: gogo_pass_entries gogo_pass_entries_member_id_period_id_key; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.gogo_pass_entries
    ADD CONSTRAINT gogo_pass_entries_member_id_period_id_key UNIQUE (member_id, period_id);


--
-- Name: gogo_pass_entries gogo_pass_entries_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.gogo_pass_entries
    ADD CONSTRAINT gogo_pass_entries_pkey PRIMARY KEY (id);


--
-- Name: gogo_pass_exchange_codes gogo_pass_exchange_codes_code_key; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.gogo_pass_exchange_codes
    ADD CONSTRAINT gogo_pass_exchange_codes_code_key UNIQUE (code);


--
-- Name: gogo_pass_exchange_codes gogo_pass_exchange_codes_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.gogo_pass_exchange_codes
    ADD CONSTRAINT gogo_pass_exchange_codes_pkey PRIMARY KEY (id);


--
-- Name: gogo_pass_periods gogo_pass_periods_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.gogo_pass_periods
    ADD CONSTRAINT gogo_pass_periods_pkey PRIMARY KEY (id);


--
-- Name: gogo_pass_plans gogo_pass_plans_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.gogo_pass_plans
    ADD CONSTRAINT gogo_pass_plans_pkey PRIMARY KEY (id);


--
-- Name: gogo_passes gogo_passes_code_key; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.gogo_passes
    ADD CONSTRAINT gogo_passes_code_key UNIQUE (code);


--
-- Name: gogo_passes gogo_passes_exchange_code_id_key; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.gogo_passes
    ADD CONSTRAINT gogo_passes_exchange_code_id_key UNIQUE (exchange_code_id);


--
-- Name: gogo_passes gogo_passes_payment_process_id_key; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.gogo_passes
    ADD CONSTRAINT gogo_passes_payment_process_id_key UNIQUE (payment_process_id);


--
-- Name: gogo_passes gogo_passes_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.gogo_passes
    ADD CONSTRAINT gogo_passes_pkey PRIMARY KEY (id);


--
-- Name: goose_db_version goose_db_version_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.goose_db_version
    ADD CONSTRAINT goose_db_version_pkey PRIMARY KEY (id);


--
-- Name: gw_deliveries gw_deliveries_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.gw_deliveries
    ADD CONSTRAINT gw_deliveries_pkey PRIMARY KEY (event_id, attempt);


--
-- Name: gw_events gw_events_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.gw_events
    ADD CONSTRAINT gw_events_pkey PRIMARY KEY (id);


--
-- Name: gw_idempotency gw_idempotency_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.gw_idempotency
    ADD CONSTRAINT gw_idempotency_pkey PRIMARY KEY (idem_key);


--
-- Name: gw_keys gw_keys_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.gw_keys
    ADD CONSTRAINT gw_keys_pkey PRIMARY KEY (name);


--
-- Name: gw_payments gw_payments_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.gw_payments
    ADD CONSTRAINT gw_payments_pkey PRIMARY KEY (id);


--
-- Name: gw_tokens gw_tokens_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.gw_tokens
    ADD CONSTRAINT gw_tokens_pkey PRIMARY KEY (token);


--
-- Name: handover_redemptions handover_redemptions_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.handover_redemptions
    ADD CONSTRAINT handover_redemptions_pkey PRIMARY KEY (token_id);


--
-- Name: mail_outbox mail_outbox_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.mail_outbox
    ADD CONSTRAINT mail_outbox_pkey PRIMARY KEY (id);


--
-- Name: members members_email_key_key; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.members
    ADD CONSTRAINT members_email_key_key UNIQUE (email_key);


--
-- Name: members members_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.members
    ADD CONSTRAINT members_pkey PRIMARY KEY (id);


--
-- Name: notification_settings notification_settings_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.notification_settings
    ADD CONSTRAINT notification_settings_pkey PRIMARY KEY (member_id);


--
-- Name: passengers passengers_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.passengers
    ADD CONSTRAINT passengers_pkey PRIMARY KEY (id);


--
-- Name: passkeys passkeys_credential_id_key; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.passkeys
    ADD CONSTRAINT passkeys_credential_id_key UNIQUE (credential_id);


--
-- Name: passkeys passkeys_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.passkeys
    ADD CONSTRAINT passkeys_pkey PRIMARY KEY (id);


--
-- Name: password_resets password_resets_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.password_resets
    ADD CONSTRAINT password_resets_pkey PRIMARY KEY (token_hash);


--
-- Name: payment_discrepancies payment_discrepancies_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.payment_discrepancies
    ADD CONSTRAINT payment_discrepancies_pkey PRIMARY KEY (id);


--
-- Name: payment_jobs payment_jobs_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.payment_jobs
    ADD CONSTRAINT payment_jobs_pkey PRIMARY KEY (name);


--
-- Name: payment_processes payment_processes_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.payment_processes
    ADD CONSTRAINT payment_processes_pkey PRIMARY KEY (id);


--
-- Name: payment_refunds payment_refunds_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.payment_refunds
    ADD CONSTRAINT payment_refunds_pkey PRIMARY KEY (process_id, reason);


--
-- Name: payment_webhook_events payment_webhook_events_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.payment_webhook_events
    ADD CONSTRAINT payment_webhook_events_pkey PRIMARY KEY (event_id);


--
-- Name: point_exchange_codes point_exchange_codes_code_key; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.point_exchange_codes
    ADD CONSTRAINT point_exchange_codes_code_key UNIQUE (code);


--
-- Name: point_exchange_codes point_exchange_codes_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.point_exchange_codes
    ADD CONSTRAINT point_exchange_codes_pkey PRIMARY KEY (id);


--
-- Name: point_ledger point_ledger_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.point_ledger
    ADD CONSTRAINT point_ledger_pkey PRIMARY KEY (id);


--
-- Name: point_ledger point_ledger_voucher_id_seq_key; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.point_ledger
    ADD CONSTRAINT point_ledger_voucher_id_seq_key UNIQUE (voucher_id, seq);


--
-- Name: point_reminders point_reminders_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.point_reminders
    ADD CONSTRAINT point_reminders_pkey PRIMARY KEY (voucher_id, threshold_days);


--
-- Name: point_vouchers point_vouchers_exchange_code_id_key; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.point_vouchers
    ADD CONSTRAINT point_vouchers_exchange_code_id_key UNIQUE (exchange_code_id);


--
-- Name: point_vouchers point_vouchers_number_key; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.point_vouchers
    ADD CONSTRAINT point_vouchers_number_key UNIQUE (number);


--
-- Name: point_vouchers point_vouchers_payment_process_id_key; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.point_vouchers
    ADD CONSTRAINT point_vouchers_payment_process_id_key UNIQUE (payment_process_id);


--
-- Name: point_vouchers point_vouchers_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.point_vouchers
    ADD CONSTRAINT point_vouchers_pkey PRIMARY KEY (id);


--
-- Name: point_vouchers point_vouchers_reissued_from_key; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.point_vouchers
    ADD CONSTRAINT point_vouchers_reissued_from_key UNIQUE (reissued_from);


--
-- Name: rate_counters rate_counters_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.rate_counters
    ADD CONSTRAINT rate_counters_pkey PRIMARY KEY (key, window_start);


--
-- Name: reservation_passengers reservation_passengers_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.reservation_passengers
    ADD CONSTRAINT reservation_passengers_pkey PRIMARY KEY (reservation_id, "position");


--
-- Name: reservation_segments reservation_segments_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.reservation_segments
    ADD CONSTRAINT reservation_segments_pkey PRIMARY KEY (reservation_id, seg_key);


--
-- Name: reservations reservations_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.reservations
    ADD CONSTRAINT reservations_pkey PRIMARY KEY (id);


--
-- Name: reservations reservations_pnr_key; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.reservations
    ADD CONSTRAINT reservations_pnr_key UNIQUE (pnr);


--
-- Name: saved_cards saved_cards_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.saved_cards
    ADD CONSTRAINT saved_cards_pkey PRIMARY KEY (gateway, token);


--
-- Name: security_events security_events_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.security_events
    ADD CONSTRAINT security_events_pkey PRIMARY KEY (id);


--
-- Name: sessions sessions_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.sessions
    ADD CONSTRAINT sessions_pkey PRIMARY KEY (id_hash);


--
-- Name: settings settings_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.settings
    ADD CONSTRAINT settings_pkey PRIMARY KEY (key);


--
-- Name: webauthn_challenges webauthn_challenges_pkey; Type: CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.webauthn_challenges
    ADD CONSTRAINT webauthn_challenges_pkey PRIMARY KEY (id);


--
-- Name: coupon_periods_product; Type: INDEX; Schema: upgrade_fixture_schema; Owner: -
--

CREATE INDEX coupon_periods_product ON upgrade_fixture_schema.coupon_periods USING btree (product_id, board_begin);


--
-- Name: coupons_member; Type: INDEX; Schema: upgrade_fixture_schema; Owner: -
--

CREATE INDEX coupons_member ON upgrade_fixture_schema.coupons USING btree (member_id, purchased_at);


--
-- Name: email_changes_member; Type: INDEX; Schema: upgrade_fixture_schema; Owner: -
--

CREATE INDEX email_changes_member ON upgrade_fixture_schema.email_changes USING btree (member_id);


--
-- Name: exception_reports_received; Type: INDEX; Schema: upgrade_fixture_schema; Owner: -
--

CREATE INDEX exception_reports_received ON upgrade_fixture_schema.exception_reports USING btree (received_at);


--
-- Name: flight_alerts_due; Type: INDEX; Schema: upgrade_fixture_schema; Owner: -
--

CREATE INDEX flight_alerts_due ON upgrade_fixture_schema.flight_alerts USING btree (due_at);


--
-- Name: flight_alerts_member; Type: INDEX; Schema: upgrade_fixture_schema; Owner: -
--

CREATE INDEX flight_alerts_member ON upgrade_fixture_schema.flight_alerts USING btree (member_id);


--
-- Name: flight_events_flight; Type: INDEX; Schema: upgrade_fixture_schema; Owner: -
--

CREATE INDEX flight_events_flight ON upgrade_fixture_schema.flight_events USING btree (flight, flight_date, occurred_at);


--
-- Name: gogo_pass_entries_draw; Type: INDEX; Schema: upgrade_fixture_schema; Owner: -
--

CREATE INDEX gogo_pass_entries_draw ON upgrade_fixture_schema.gogo_pass_entries USING btree (draw_id);


--
-- Name: gogo_pass_entries_pending; Type: INDEX; Schema: upgrade_fixture_schema; Owner: -
--

CREATE INDEX gogo_pass_entries_pending ON upgrade_fixture_schema.gogo_pass_entries USING btree (result, period_id);


--
-- Name: gogo_pass_periods_plan; Type: INDEX; Schema: upgrade_fixture_schema; Owner: -
--

CREATE INDEX gogo_pass_periods_plan ON upgrade_fixture_schema.gogo_pass_periods USING btree (plan_id, board_begin);


--
-- Name: gogo_passes_member; Type: INDEX; Schema: upgrade_fixture_schema; Owner: -
--

CREATE INDEX gogo_passes_member ON upgrade_fixture_schema.gogo_passes USING btree (member_id, purchased_at);


--
-- Name: gogo_passes_member_period; Type: INDEX; Schema: upgrade_fixture_schema; Owner: -
--

CREATE UNIQUE INDEX gogo_passes_member_period ON upgrade_fixture_schema.gogo_passes USING btree (member_id, period_id) WHERE (duplicate_of IS NULL);


--
-- Name: gw_events_due; Type: INDEX; Schema: upgrade_fixture_schema; Owner: -
--

CREATE INDEX gw_events_due ON upgrade_fixture_schema.gw_events USING btree (delivered_at, next_attempt_at);


--
-- Name: gw_idempotency_created; Type: INDEX; Schema: upgrade_fixture_schema; Owner: -
--

CREATE INDEX gw_idempotency_created ON upgrade_fixture_schema.gw_idempotency USING btree (created_at);


--
-- Name: gw_payments_expiry; Type: INDEX; Schema: upgrade_fixture_schema; Owner: -
--

CREATE INDEX gw_payments_expiry ON upgrade_fixture_schema.gw_payments USING btree (status, expires_at);


--
-- Name: gw_payments_reference; Type: INDEX; Schema: upgrade_fixture_schema; Owner: -
--

CREATE INDEX gw_payments_reference ON upgrade_fixture_schema.gw_payments USING btree (reference);


--
-- Name: handover_redemptions_expires; Type: INDEX; Schema: upgrade_fixture_schema; Owner: -
--

CREATE INDEX handover_redemptions_expires ON upgrade_fixture_schema.handover_redemptions USING btree (expires_at);


--
-- Name: mail_outbox_created; Type: INDEX; Schema: upgrade_fixture_schema; Owner: -
--

CREATE INDEX mail_outbox_created ON upgrade_fixture_schema.mail_outbox USING btree (created_at);


--
-- Name: mail_outbox_due; Type: INDEX; Schema: upgrade_fixture_schema; Owner: -
--

CREATE INDEX mail_outbox_due ON upgrade_fixture_schema.mail_outbox USING btree (status, next_attempt_at);


--
-- Name: members_live; Type: INDEX; Schema: upgrade_fixture_schema; Owner: -
--

CREATE INDEX members_live ON upgrade_fixture_schema.members USING btree (id, deleted_at, bookings_version);


--
-- Name: passengers_member; Type: INDEX; Schema: upgrade_fixture_schema; Owner: -
--

CREATE INDEX passengers_member ON upgrade_fixture_schema.passengers USING btree (member_id, created_at);


--
-- Name: passkeys_member; Type: INDEX; Schema: upgrade_fixture_schema; Owner: -
--

CREATE INDEX passkeys_member ON upgrade_fixture_schema.passkeys USING btree (member_id, created_at);


--
-- Name: password_resets_member; Type: INDEX; Schema: upgrade_fixture_schema; Owner: -
--

CREATE INDEX password_resets_member ON upgrade_fixture_schema.password_resets USING btree (member_id);


--
-- Name: payment_discrepancies_process; Type: INDEX; Schema: upgrade_fixture_schema; Owner: -
--

CREATE INDEX payment_discrepancies_process ON upgrade_fixture_schema.payment_discrepancies USING btree (process_id, created_at);


--
-- Name: payment_processes_open; Type: INDEX; Schema: upgrade_fixture_schema; Owner: -
--

CREATE UNIQUE INDEX payment_processes_open ON upgrade_fixture_schema.payment_processes USING btree (member_id) WHERE (status = ANY (ARRAY['prepared'::text, 'pending'::text]));


--
-- Name: payment_processes_request; Type: INDEX; Schema: upgrade_fixture_schema; Owner: -
--

CREATE UNIQUE INDEX payment_processes_request ON upgrade_fixture_schema.payment_processes USING btree (member_id, request_id);


--
-- Name: payment_processes_unnotified; Type: INDEX; Schema: upgrade_fixture_schema; Owner: -
--

CREATE INDEX payment_processes_unnotified ON upgrade_fixture_schema.payment_processes USING btree (settled_at) WHERE (notified = false);


--
-- Name: payment_processes_work; Type: INDEX; Schema: upgrade_fixture_schema; Owner: -
--

CREATE INDEX payment_processes_work ON upgrade_fixture_schema.payment_processes USING btree (next_check_at) WHERE (status = ANY (ARRAY['prepared'::text, 'pending'::text]));


--
-- Name: point_vouchers_member; Type: INDEX; Schema: upgrade_fixture_schema; Owner: -
--

CREATE INDEX point_vouchers_member ON upgrade_fixture_schema.point_vouchers USING btree (member_id, expire_date);


--
-- Name: rate_counters_window; Type: INDEX; Schema: upgrade_fixture_schema; Owner: -
--

CREATE INDEX rate_counters_window ON upgrade_fixture_schema.rate_counters USING btree (window_start);


--
-- Name: reservation_passengers_view; Type: INDEX; Schema: upgrade_fixture_schema; Owner: -
--

CREATE INDEX reservation_passengers_view ON upgrade_fixture_schema.reservation_passengers USING btree (reservation_id, "position", lastname, firstname, passenger_type);


--
-- Name: reservation_segments_flight; Type: INDEX; Schema: upgrade_fixture_schema; Owner: -
--

CREATE INDEX reservation_segments_flight ON upgrade_fixture_schema.reservation_segments USING btree (flight, depart_at);


--
-- Name: reservation_segments_view; Type: INDEX; Schema: upgrade_fixture_schema; Owner: -
--

CREATE INDEX reservation_segments_view ON upgrade_fixture_schema.reservation_segments USING btree (reservation_id, "position", seg_key, status_code, flight, flight_number, is_show_hotel_link, origin_airport_code, origin_terminal, origin_gate, destination_airport_code, destination_terminal, depart_at, estimated_depart_at, actual_depart_at, arrival_at, estimated_arrival_at, actual_arrival_at, flight_status, change_seq, change_kind, previous_depart_at, previous_arrival_at, diverted_to);


--
-- Name: reservations_member_search; Type: INDEX; Schema: upgrade_fixture_schema; Owner: -
--

CREATE INDEX reservations_member_search ON upgrade_fixture_schema.reservations USING btree (member_id, first_depart_at, id, booked_at, last_depart_at, status_code, pnr, currency, total_amount, contact_email);


--
-- Name: saved_cards_member; Type: INDEX; Schema: upgrade_fixture_schema; Owner: -
--

CREATE INDEX saved_cards_member ON upgrade_fixture_schema.saved_cards USING btree (member_id, created_at);


--
-- Name: security_events_at; Type: INDEX; Schema: upgrade_fixture_schema; Owner: -
--

CREATE INDEX security_events_at ON upgrade_fixture_schema.security_events USING btree (at);


--
-- Name: security_events_member; Type: INDEX; Schema: upgrade_fixture_schema; Owner: -
--

CREATE INDEX security_events_member ON upgrade_fixture_schema.security_events USING btree (member_id, at);


--
-- Name: sessions_last_seen; Type: INDEX; Schema: upgrade_fixture_schema; Owner: -
--

CREATE INDEX sessions_last_seen ON upgrade_fixture_schema.sessions USING btree (last_seen_at);


--
-- Name: sessions_member; Type: INDEX; Schema: upgrade_fixture_schema; Owner: -
--

CREATE INDEX sessions_member ON upgrade_fixture_schema.sessions USING btree (member_id);


--
-- Name: webauthn_challenges_expires; Type: INDEX; Schema: upgrade_fixture_schema; Owner: -
--

CREATE INDEX webauthn_challenges_expires ON upgrade_fixture_schema.webauthn_challenges USING btree (expires_at);


--
-- Name: reservation_passengers reservation_passengers_version_del; Type: TRIGGER; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TRIGGER reservation_passengers_version_del AFTER DELETE ON upgrade_fixture_schema.reservation_passengers REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION upgrade_fixture_schema.reservation_passengers_bump_version();


--
-- Name: reservation_passengers reservation_passengers_version_ins; Type: TRIGGER; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TRIGGER reservation_passengers_version_ins AFTER INSERT ON upgrade_fixture_schema.reservation_passengers REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION upgrade_fixture_schema.reservation_passengers_bump_version();


--
-- Name: reservation_passengers reservation_passengers_version_upd; Type: TRIGGER; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TRIGGER reservation_passengers_version_upd AFTER UPDATE ON upgrade_fixture_schema.reservation_passengers REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION upgrade_fixture_schema.reservation_passengers_bump_version();


--
-- Name: reservation_passengers reservation_passengers_view_del; Type: TRIGGER; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TRIGGER reservation_passengers_view_del AFTER DELETE ON upgrade_fixture_schema.reservation_passengers REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION upgrade_fixture_schema.reservation_passengers_rebuild_view();


--
-- Name: reservation_passengers reservation_passengers_view_ins; Type: TRIGGER; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TRIGGER reservation_passengers_view_ins AFTER INSERT ON upgrade_fixture_schema.reservation_passengers REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION upgrade_fixture_schema.reservation_passengers_rebuild_view();


--
-- Name: reservation_passengers reservation_passengers_view_upd; Type: TRIGGER; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TRIGGER reservation_passengers_view_upd AFTER UPDATE ON upgrade_fixture_schema.reservation_passengers REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION upgrade_fixture_schema.reservation_passengers_rebuild_view();


--
-- Name: reservation_segments reservation_segments_version_del; Type: TRIGGER; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TRIGGER reservation_segments_version_del AFTER DELETE ON upgrade_fixture_schema.reservation_segments REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION upgrade_fixture_schema.reservation_segments_bump_version();


--
-- Name: reservation_segments reservation_segments_version_ins; Type: TRIGGER; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TRIGGER reservation_segments_version_ins AFTER INSERT ON upgrade_fixture_schema.reservation_segments REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION upgrade_fixture_schema.reservation_segments_bump_version();


--
-- Name: reservation_segments reservation_segments_version_upd; Type: TRIGGER; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TRIGGER reservation_segments_version_upd AFTER UPDATE ON upgrade_fixture_schema.reservation_segments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION upgrade_fixture_schema.reservation_segments_bump_version();


--
-- Name: reservation_segments reservation_segments_view_del; Type: TRIGGER; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TRIGGER reservation_segments_view_del AFTER DELETE ON upgrade_fixture_schema.reservation_segments REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION upgrade_fixture_schema.reservation_segments_rebuild_view();


--
-- Name: reservation_segments reservation_segments_view_ins; Type: TRIGGER; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TRIGGER reservation_segments_view_ins AFTER INSERT ON upgrade_fixture_schema.reservation_segments REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION upgrade_fixture_schema.reservation_segments_rebuild_view();


--
-- Name: reservation_segments reservation_segments_view_upd; Type: TRIGGER; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TRIGGER reservation_segments_view_upd AFTER UPDATE ON upgrade_fixture_schema.reservation_segments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION upgrade_fixture_schema.reservation_segments_rebuild_view();


--
-- Name: reservations reservations_version_del; Type: TRIGGER; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TRIGGER reservations_version_del AFTER DELETE ON upgrade_fixture_schema.reservations REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION upgrade_fixture_schema.reservations_bump_version();


--
-- Name: reservations reservations_version_ins; Type: TRIGGER; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TRIGGER reservations_version_ins AFTER INSERT ON upgrade_fixture_schema.reservations REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION upgrade_fixture_schema.reservations_bump_version();


--
-- Name: reservations reservations_version_upd; Type: TRIGGER; Schema: upgrade_fixture_schema; Owner: -
--

CREATE TRIGGER reservations_version_upd AFTER UPDATE ON upgrade_fixture_schema.reservations REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION upgrade_fixture_schema.reservations_bump_version();


--
-- Name: account_deletions account_deletions_member_id_fkey; Type: FK CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.account_deletions
    ADD CONSTRAINT account_deletions_member_id_fkey FOREIGN KEY (member_id) REFERENCES upgrade_fixture_schema.members(id) ON DELETE CASCADE;


--
-- Name: calendar_feeds calendar_feeds_member_id_fkey; Type: FK CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.calendar_feeds
    ADD CONSTRAINT calendar_feeds_member_id_fkey FOREIGN KEY (member_id) REFERENCES upgrade_fixture_schema.members(id) ON DELETE CASCADE;


--
-- Name: coupon_passengers coupon_passengers_coupon_id_fkey; Type: FK CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.coupon_passengers
    ADD CONSTRAINT coupon_passengers_coupon_id_fkey FOREIGN KEY (coupon_id) REFERENCES upgrade_fixture_schema.coupons(id) ON DELETE CASCADE;


--
-- Name: coupon_periods coupon_periods_product_id_fkey; Type: FK CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.coupon_periods
    ADD CONSTRAINT coupon_periods_product_id_fkey FOREIGN KEY (product_id) REFERENCES upgrade_fixture_schema.coupon_products(id);


--
-- Name: coupon_prepared coupon_prepared_member_id_fkey; Type: FK CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.coupon_prepared
    ADD CONSTRAINT coupon_prepared_member_id_fkey FOREIGN KEY (member_id) REFERENCES upgrade_fixture_schema.members(id) ON DELETE CASCADE;


--
-- Name: coupons coupons_member_id_fkey; Type: FK CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.coupons
    ADD CONSTRAINT coupons_member_id_fkey FOREIGN KEY (member_id) REFERENCES upgrade_fixture_schema.members(id) ON DELETE CASCADE;


--
-- Name: coupons coupons_period_id_fkey; Type: FK CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.coupons
    ADD CONSTRAINT coupons_period_id_fkey FOREIGN KEY (period_id) REFERENCES upgrade_fixture_schema.coupon_periods(id);


--
-- Name: coupons coupons_product_id_fkey; Type: FK CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.coupons
    ADD CONSTRAINT coupons_product_id_fkey FOREIGN KEY (product_id) REFERENCES upgrade_fixture_schema.coupon_products(id);


--
-- Name: email_changes email_changes_member_id_fkey; Type: FK CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.email_changes
    ADD CONSTRAINT email_changes_member_id_fkey FOREIGN KEY (member_id) REFERENCES upgrade_fixture_schema.members(id) ON DELETE CASCADE;


--
-- Name: flight_alerts flight_alerts_member_id_fkey; Type: FK CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.flight_alerts
    ADD CONSTRAINT flight_alerts_member_id_fkey FOREIGN KEY (member_id) REFERENCES upgrade_fixture_schema.members(id) ON DELETE CASCADE;


--
-- Name: gogo_pass_entries gogo_pass_entries_draw_id_fkey; Type: FK CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.gogo_pass_entries
    ADD CONSTRAINT gogo_pass_entries_draw_id_fkey FOREIGN KEY (draw_id) REFERENCES upgrade_fixture_schema.gogo_pass_draws(id);


--
-- Name: gogo_pass_entries gogo_pass_entries_member_id_fkey; Type: FK CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.gogo_pass_entries
    ADD CONSTRAINT gogo_pass_entries_member_id_fkey FOREIGN KEY (member_id) REFERENCES upgrade_fixture_schema.members(id) ON DELETE CASCADE;


--
-- Name: gogo_pass_entries gogo_pass_entries_period_id_fkey; Type: FK CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.gogo_pass_entries
    ADD CONSTRAINT gogo_pass_entries_period_id_fkey FOREIGN KEY (period_id) REFERENCES upgrade_fixture_schema.gogo_pass_periods(id);


--
-- Name: gogo_pass_entries gogo_pass_entries_plan_id_fkey; Type: FK CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.gogo_pass_entries
    ADD CONSTRAINT gogo_pass_entries_plan_id_fkey FOREIGN KEY (plan_id) REFERENCES upgrade_fixture_schema.gogo_pass_plans(id);


--
-- Name: gogo_pass_exchange_codes gogo_pass_exchange_codes_period_id_fkey; Type: FK CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.gogo_pass_exchange_codes
    ADD CONSTRAINT gogo_pass_exchange_codes_period_id_fkey FOREIGN KEY (period_id) REFERENCES upgrade_fixture_schema.gogo_pass_periods(id);


--
-- Name: gogo_pass_exchange_codes gogo_pass_exchange_codes_plan_id_fkey; Type: FK CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.gogo_pass_exchange_codes
    ADD CONSTRAINT gogo_pass_exchange_codes_plan_id_fkey FOREIGN KEY (plan_id) REFERENCES upgrade_fixture_schema.gogo_pass_plans(id);


--
-- Name: gogo_pass_exchange_codes gogo_pass_exchange_codes_redeemed_by_fkey; Type: FK CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.gogo_pass_exchange_codes
    ADD CONSTRAINT gogo_pass_exchange_codes_redeemed_by_fkey FOREIGN KEY (redeemed_by) REFERENCES upgrade_fixture_schema.members(id) ON DELETE SET NULL;


--
-- Name: gogo_pass_periods gogo_pass_periods_plan_id_fkey; Type: FK CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.gogo_pass_periods
    ADD CONSTRAINT gogo_pass_periods_plan_id_fkey FOREIGN KEY (plan_id) REFERENCES upgrade_fixture_schema.gogo_pass_plans(id);


--
-- Name: gogo_passes gogo_passes_exchange_code_id_fkey; Type: FK CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.gogo_passes
    ADD CONSTRAINT gogo_passes_exchange_code_id_fkey FOREIGN KEY (exchange_code_id) REFERENCES upgrade_fixture_schema.gogo_pass_exchange_codes(id);


--
-- Name: gogo_passes gogo_passes_member_id_fkey; Type: FK CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.gogo_passes
    ADD CONSTRAINT gogo_passes_member_id_fkey FOREIGN KEY (member_id) REFERENCES upgrade_fixture_schema.members(id) ON DELETE CASCADE;


--
-- Name: gogo_passes gogo_passes_period_id_fkey; Type: FK CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.gogo_passes
    ADD CONSTRAINT gogo_passes_period_id_fkey FOREIGN KEY (period_id) REFERENCES upgrade_fixture_schema.gogo_pass_periods(id);


--
-- Name: gogo_passes gogo_passes_plan_id_fkey; Type: FK CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.gogo_passes
    ADD CONSTRAINT gogo_passes_plan_id_fkey FOREIGN KEY (plan_id) REFERENCES upgrade_fixture_schema.gogo_pass_plans(id);


--
-- Name: notification_settings notification_settings_member_id_fkey; Type: FK CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.notification_settings
    ADD CONSTRAINT notification_settings_member_id_fkey FOREIGN KEY (member_id) REFERENCES upgrade_fixture_schema.members(id) ON DELETE CASCADE;


--
-- Name: passengers passengers_member_id_fkey; Type: FK CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.passengers
    ADD CONSTRAINT passengers_member_id_fkey FOREIGN KEY (member_id) REFERENCES upgrade_fixture_schema.members(id) ON DELETE CASCADE;


--
-- Name: passkeys passkeys_member_id_fkey; Type: FK CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.passkeys
    ADD CONSTRAINT passkeys_member_id_fkey FOREIGN KEY (member_id) REFERENCES upgrade_fixture_schema.members(id) ON DELETE CASCADE;


--
-- Name: password_resets password_resets_member_id_fkey; Type: FK CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.password_resets
    ADD CONSTRAINT password_resets_member_id_fkey FOREIGN KEY (member_id) REFERENCES upgrade_fixture_schema.members(id) ON DELETE CASCADE;


--
-- Name: payment_processes payment_processes_member_id_fkey; Type: FK CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.payment_processes
    ADD CONSTRAINT payment_processes_member_id_fkey FOREIGN KEY (member_id) REFERENCES upgrade_fixture_schema.members(id) ON DELETE CASCADE;


--
-- Name: payment_refunds payment_refunds_process_id_fkey; Type: FK CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.payment_refunds
    ADD CONSTRAINT payment_refunds_process_id_fkey FOREIGN KEY (process_id) REFERENCES upgrade_fixture_schema.payment_processes(id) ON DELETE CASCADE;


--
-- Name: point_exchange_codes point_exchange_codes_used_by_fkey; Type: FK CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.point_exchange_codes
    ADD CONSTRAINT point_exchange_codes_used_by_fkey FOREIGN KEY (used_by) REFERENCES upgrade_fixture_schema.members(id) ON DELETE SET NULL;


--
-- Name: point_ledger point_ledger_voucher_id_fkey; Type: FK CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.point_ledger
    ADD CONSTRAINT point_ledger_voucher_id_fkey FOREIGN KEY (voucher_id) REFERENCES upgrade_fixture_schema.point_vouchers(id);


--
-- Name: point_reminders point_reminders_voucher_id_fkey; Type: FK CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.point_reminders
    ADD CONSTRAINT point_reminders_voucher_id_fkey FOREIGN KEY (voucher_id) REFERENCES upgrade_fixture_schema.point_vouchers(id);


--
-- Name: point_vouchers point_vouchers_member_id_fkey; Type: FK CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.point_vouchers
    ADD CONSTRAINT point_vouchers_member_id_fkey FOREIGN KEY (member_id) REFERENCES upgrade_fixture_schema.members(id) ON DELETE SET NULL;


--
-- Name: point_vouchers point_vouchers_reissued_from_fkey; Type: FK CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.point_vouchers
    ADD CONSTRAINT point_vouchers_reissued_from_fkey FOREIGN KEY (reissued_from) REFERENCES upgrade_fixture_schema.point_vouchers(id);


--
-- Name: reservation_passengers reservation_passengers_reservation_id_fkey; Type: FK CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.reservation_passengers
    ADD CONSTRAINT reservation_passengers_reservation_id_fkey FOREIGN KEY (reservation_id) REFERENCES upgrade_fixture_schema.reservations(id) ON DELETE CASCADE;


--
-- Name: reservation_segments reservation_segments_reservation_id_fkey; Type: FK CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.reservation_segments
    ADD CONSTRAINT reservation_segments_reservation_id_fkey FOREIGN KEY (reservation_id) REFERENCES upgrade_fixture_schema.reservations(id) ON DELETE CASCADE;


--
-- Name: reservations reservations_member_id_fkey; Type: FK CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.reservations
    ADD CONSTRAINT reservations_member_id_fkey FOREIGN KEY (member_id) REFERENCES upgrade_fixture_schema.members(id) ON DELETE SET NULL;


--
-- Name: saved_cards saved_cards_member_id_fkey; Type: FK CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.saved_cards
    ADD CONSTRAINT saved_cards_member_id_fkey FOREIGN KEY (member_id) REFERENCES upgrade_fixture_schema.members(id) ON DELETE CASCADE;


--
-- Name: security_events security_events_member_id_fkey; Type: FK CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.security_events
    ADD CONSTRAINT security_events_member_id_fkey FOREIGN KEY (member_id) REFERENCES upgrade_fixture_schema.members(id) ON DELETE CASCADE;


--
-- Name: sessions sessions_member_id_fkey; Type: FK CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.sessions
    ADD CONSTRAINT sessions_member_id_fkey FOREIGN KEY (member_id) REFERENCES upgrade_fixture_schema.members(id) ON DELETE CASCADE;


--
-- Name: webauthn_challenges webauthn_challenges_member_id_fkey; Type: FK CONSTRAINT; Schema: upgrade_fixture_schema; Owner: -
--

ALTER TABLE ONLY upgrade_fixture_schema.webauthn_challenges
    ADD CONSTRAINT webauthn_challenges_member_id_fkey FOREIGN KEY (member_id) REFERENCES upgrade_fixture_schema.members(id) ON DELETE CASCADE;


--
-- PostgreSQL database dump complete
--


