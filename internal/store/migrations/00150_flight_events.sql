-- +goose Up
-- The airline's operations feed (flight changes). A flight is a flight
-- designator and the local calendar date of its departure at the origin
-- airport; its bookings' segments are found through the index on
-- (flight, depart_at), never by a scan of the segments.
CREATE INDEX reservation_segments_flight ON reservation_segments(flight, depart_at);

-- Every accepted event, kept once by its own id: a resend is found here
-- and changes nothing. outcome is applied (the flight's state changed),
-- stale (older than what the flight already knew) or pending (only inside
-- the transaction that applies it). bookings counts the reservations whose
-- segments the event reached.
CREATE TABLE flight_events (
    id          TEXT PRIMARY KEY,
    flight      TEXT NOT NULL,
    flight_date TEXT NOT NULL,
    kind        TEXT NOT NULL,
    occurred_at BIGINT NOT NULL,
    received_at BIGINT NOT NULL,
    source      TEXT NOT NULL,
    payload     TEXT NOT NULL,
    outcome     TEXT NOT NULL,
    bookings    INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX flight_events_flight ON flight_events(flight, flight_date, occurred_at);

-- What the feed has told about each flight. Each group of fields carries
-- the event time of its last change (times_at: schedule, estimates and
-- status; gate_at: gate and terminal; route_at: diversion), so a late
-- older event never overwrites a newer one. original_* are the schedule
-- before the first change; sequence counts applied changes (the calendar's
-- SEQUENCE).
CREATE TABLE flight_states (
    flight               TEXT NOT NULL,
    flight_date          TEXT NOT NULL,
    origin_airport_code  TEXT NOT NULL,
    destination_airport_code TEXT NOT NULL,
    original_depart_at   BIGINT NOT NULL,
    original_arrival_at  BIGINT NOT NULL,
    depart_at            BIGINT NOT NULL,
    arrival_at           BIGINT NOT NULL,
    estimated_depart_at  BIGINT,
    estimated_arrival_at BIGINT,
    flight_status        TEXT NOT NULL,
    gate                 TEXT NOT NULL DEFAULT '',
    terminal             TEXT NOT NULL DEFAULT '',
    diverted_to          TEXT NOT NULL DEFAULT '',
    last_kind            TEXT NOT NULL DEFAULT '',
    times_at             BIGINT NOT NULL DEFAULT 0,
    gate_at              BIGINT NOT NULL DEFAULT 0,
    route_at             BIGINT NOT NULL DEFAULT 0,
    sequence             INTEGER NOT NULL DEFAULT 0,
    updated_at           BIGINT NOT NULL,
    PRIMARY KEY (flight, flight_date)
);

-- +goose Down
DROP TABLE flight_states;
DROP TABLE flight_events;
DROP INDEX reservation_segments_flight;
