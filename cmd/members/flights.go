package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"time"

	"members/internal/app"
	"members/internal/booking"
	"members/internal/flightops"
)

const flightsUsage = `usage: members flights <command> [flags]

commands:
  event  --flight MM123 --date 2026-12-01 --kind KIND [--departure TIME] [--arrival TIME]
         [--gate G] [--terminal T] [--diverted-to AIRPORT]
         apply a flight event as the operator; KIND is delay, cancellation, gate,
         time_change, diversion or on_time; a TIME is HH:MM on the flight's date
         or "YYYY-MM-DD HH:MM" (a delay past midnight), local at the airport;
         prints the event id and how many bookings it touched
  show   --flight MM123 --date 2026-12-01
         the flight's state and its events
`

// flightsCmd is the operator's side of the flight events feed.
func flightsCmd(ctx context.Context, args []string, stdout, stderr io.Writer, logger *slog.Logger) error {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" {
		fmt.Fprint(stdout, flightsUsage)
		return nil
	}
	fs := flag.NewFlagSet("flights "+args[0], flag.ContinueOnError)
	dsn := dbFlag(fs)
	var in flightops.OperatorEvent
	fs.StringVar(&in.Flight, "flight", "", "flight designator, e.g. MM123 (required)")
	fs.StringVar(&in.Date, "date", "", "local departure date YYYY-MM-DD (required)")
	switch args[0] {
	case "event":
		fs.StringVar(&in.Kind, "kind", "", "delay | cancellation | gate | time_change | diversion | on_time (required)")
		fs.StringVar(&in.Departure, "departure", "", "new departure HH:MM or \"YYYY-MM-DD HH:MM\", local at the origin (delay, time_change)")
		fs.StringVar(&in.Arrival, "arrival", "", "new arrival HH:MM or \"YYYY-MM-DD HH:MM\", local at the destination (delay, time_change)")
		fs.StringVar(&in.Gate, "gate", "", "departure gate")
		fs.StringVar(&in.Terminal, "terminal", "", "departure terminal")
		fs.StringVar(&in.DivertedTo, "diverted-to", "", "airport code the flight is diverted to (diversion)")
	case "show":
	default:
		fmt.Fprint(stderr, flightsUsage)
		return fmt.Errorf("flights: unknown command %q", args[0])
	}
	if err := parse(fs, args[1:], stderr); err != nil {
		return err
	}
	if in.Flight == "" || in.Date == "" {
		return errors.New("flights: --flight and --date are required")
	}
	a, err := app.Open(ctx, app.Options{DSN: *dsn, Logger: logger})
	if err != nil {
		return err
	}
	defer a.Close()
	svc := a.FlightOps()
	if args[0] == "event" {
		res, err := svc.ApplyOperator(ctx, in)
		if err != nil {
			return flightErr(err)
		}
		fmt.Fprintf(stdout, "%s\t%s\t%d bookings\n", res.EventID, res.Outcome, res.Bookings)
		return nil
	}
	st, found, events, err := svc.Show(ctx, in.Flight, in.Date)
	if err != nil {
		return flightErr(err)
	}
	if !found {
		fmt.Fprintf(stdout, "%s %s: no events\n", in.Flight, in.Date)
		return nil
	}
	local := func(t time.Time, airport string) string {
		return t.In(booking.AirportZone(airport)).Format("2006-01-02 15:04 -07:00")
	}
	opt := func(t *time.Time, airport string) string {
		if t == nil {
			return "-"
		}
		return local(*t, airport)
	}
	fmt.Fprintf(stdout, "flight      %s %s %s-%s\n", st.Flight, st.Date, st.Origin, st.Destination)
	fmt.Fprintf(stdout, "status      %s (change %d, last: %s)\n", st.FlightStatus, st.Sequence, st.LastKind)
	fmt.Fprintf(stdout, "scheduled   %s -> %s\n", local(st.DepartAt, st.Origin), local(st.ArrivalAt, st.Destination))
	fmt.Fprintf(stdout, "originally  %s -> %s\n", local(st.OriginalDepartAt, st.Origin), local(st.OriginalArrivalAt, st.Destination))
	fmt.Fprintf(stdout, "estimated   %s -> %s\n", opt(st.EstimatedDepartAt, st.Origin), opt(st.EstimatedArrivalAt, st.Destination))
	fmt.Fprintf(stdout, "gate        %q terminal %q diverted to %q\n", st.Gate, st.Terminal, st.DivertedTo)
	for _, e := range events {
		fmt.Fprintf(stdout, "event       %s %s %s at %s (%s, %s, %d bookings)\n", e.ID, e.Kind, e.Source,
			e.OccurredAt.UTC().Format(time.RFC3339), e.Outcome, e.ReceivedAt.Format(time.RFC3339), e.Bookings)
	}
	return nil
}

func flightErr(err error) error {
	var fe *flightops.FieldError
	switch {
	case errors.As(err, &fe):
		return fmt.Errorf("flights: --%s: %s", flagName(fe.Field), fe.Reason)
	case errors.Is(err, flightops.ErrUnknownFlight):
		return errors.New("flights: no booking holds this flight on this date")
	}
	return err
}

// flagName maps an event field to the command's flag.
func flagName(field string) string {
	switch field {
	case "divertedTo":
		return "diverted-to"
	case "occurredAt", "id":
		return "kind"
	}
	return field
}
