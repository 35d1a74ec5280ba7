-- +goose Up
-- Reservations (bookings) and their flight segments and passengers.
-- A reservation exists before a member adds it to the account (member_id
-- NULL); adding it by PNR and a passenger's last name sets member_id.
-- first_depart_at / last_depart_at copy the first and last segment's
-- scheduled departure so the member's search (by departure, paged) runs on
-- one index without touching the segments.
CREATE TABLE reservations (
    id              TEXT PRIMARY KEY,
    pnr             TEXT NOT NULL UNIQUE,
    member_id       TEXT REFERENCES members(id) ON DELETE SET NULL,
    booked_at       BIGINT NOT NULL,
    status_code     TEXT NOT NULL,
    currency        TEXT NOT NULL,
    total_amount    BIGINT NOT NULL,
    contact_email   TEXT NOT NULL DEFAULT '',
    first_depart_at BIGINT NOT NULL,
    last_depart_at  BIGINT NOT NULL,
    created_at      BIGINT NOT NULL
);
CREATE INDEX reservations_member_depart ON reservations(member_id, first_depart_at, id);

CREATE TABLE reservation_segments (
    reservation_id           TEXT NOT NULL REFERENCES reservations(id) ON DELETE CASCADE,
    seg_key                  TEXT NOT NULL,
    position                 INTEGER NOT NULL,
    status_code              TEXT NOT NULL,
    flight                   TEXT NOT NULL,
    flight_number            TEXT NOT NULL,
    is_show_hotel_link       BOOLEAN NOT NULL DEFAULT FALSE,
    origin_airport_code      TEXT NOT NULL,
    origin_terminal          TEXT NOT NULL DEFAULT '',
    origin_gate              TEXT NOT NULL DEFAULT '',
    destination_airport_code TEXT NOT NULL,
    destination_terminal     TEXT NOT NULL DEFAULT '',
    depart_at                BIGINT NOT NULL,
    estimated_depart_at      BIGINT,
    actual_depart_at         BIGINT,
    arrival_at               BIGINT NOT NULL,
    estimated_arrival_at     BIGINT,
    actual_arrival_at        BIGINT,
    flight_status            TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (reservation_id, seg_key)
);
-- The airport filter probes a reservation's segments through the primary
-- key; no index by airport (it would tempt planners away from the member's
-- index onto every segment of a busy airport).

CREATE TABLE reservation_passengers (
    reservation_id TEXT NOT NULL REFERENCES reservations(id) ON DELETE CASCADE,
    position       INTEGER NOT NULL,
    lastname       TEXT NOT NULL,
    firstname      TEXT NOT NULL,
    passenger_type TEXT NOT NULL DEFAULT 'ADULT',
    PRIMARY KEY (reservation_id, position)
);

-- +goose Down
DROP TABLE reservation_passengers;
DROP TABLE reservation_segments;
DROP TABLE reservations;
