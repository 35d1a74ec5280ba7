-- +goose Up
-- What the operations feed changed on a booking segment, for the member's
-- pages and calendar: change_seq counts the flight's changes (the
-- calendar's SEQUENCE), previous_* keep the schedule before the first
-- change, change_kind is the last change's kind, diverted_to the airport
-- of a diversion. The segments' covering index of the booking search
-- (00031) is rebuilt with them, so the search still reads no table row.
ALTER TABLE reservation_segments ADD COLUMN change_seq INTEGER NOT NULL DEFAULT 0;
ALTER TABLE reservation_segments ADD COLUMN change_kind TEXT NOT NULL DEFAULT '';
ALTER TABLE reservation_segments ADD COLUMN previous_depart_at BIGINT;
ALTER TABLE reservation_segments ADD COLUMN previous_arrival_at BIGINT;
ALTER TABLE reservation_segments ADD COLUMN diverted_to TEXT NOT NULL DEFAULT '';
DROP INDEX reservation_segments_view;
CREATE INDEX reservation_segments_view ON reservation_segments(reservation_id, position,
    seg_key, status_code, flight, flight_number, is_show_hotel_link,
    origin_airport_code, origin_terminal, origin_gate, destination_airport_code, destination_terminal,
    depart_at, estimated_depart_at, actual_depart_at, arrival_at, estimated_arrival_at, actual_arrival_at, flight_status,
    change_seq, change_kind, previous_depart_at, previous_arrival_at, diverted_to);

-- +goose Down
DROP INDEX reservation_segments_view;
CREATE INDEX reservation_segments_view ON reservation_segments(reservation_id, position,
    seg_key, status_code, flight, flight_number, is_show_hotel_link,
    origin_airport_code, origin_terminal, origin_gate, destination_airport_code, destination_terminal,
    depart_at, estimated_depart_at, actual_depart_at, arrival_at, estimated_arrival_at, actual_arrival_at, flight_status);
ALTER TABLE reservation_segments DROP COLUMN diverted_to;
ALTER TABLE reservation_segments DROP COLUMN previous_arrival_at;
ALTER TABLE reservation_segments DROP COLUMN previous_depart_at;
ALTER TABLE reservation_segments DROP COLUMN change_kind;
ALTER TABLE reservation_segments DROP COLUMN change_seq;
