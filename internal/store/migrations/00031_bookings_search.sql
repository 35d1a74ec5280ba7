-- +goose Up
-- The member's booking search reads covering indexes only. A member's
-- bookings, and each booking's segments and passengers, lie far apart in
-- their tables (rows go in in booking order), so reading them through the
-- tables cost one page per row: about a hundred random page reads per
-- search, growing out of any cache as the tables grow. These indexes hold
-- every column the search returns, in the order it returns them, so the
-- member's bookings are read side by side in a page or two, and each
-- booking's segments and passengers from one page each: a search costs the
-- same whatever the tables' size, and the page cache holds what searches use.
CREATE INDEX reservations_member_search ON reservations(member_id, first_depart_at, id,
    booked_at, last_depart_at, status_code, pnr, currency, total_amount, contact_email);
DROP INDEX reservations_member_depart;
CREATE INDEX reservation_segments_view ON reservation_segments(reservation_id, position,
    seg_key, status_code, flight, flight_number, is_show_hotel_link,
    origin_airport_code, origin_terminal, origin_gate, destination_airport_code, destination_terminal,
    depart_at, estimated_depart_at, actual_depart_at, arrival_at, estimated_arrival_at, actual_arrival_at, flight_status);
CREATE INDEX reservation_passengers_view ON reservation_passengers(reservation_id, position,
    lastname, firstname, passenger_type);

-- +goose Down
DROP INDEX reservation_passengers_view;
DROP INDEX reservation_segments_view;
CREATE INDEX reservations_member_depart ON reservations(member_id, first_depart_at, id);
DROP INDEX reservations_member_search;
