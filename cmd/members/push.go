package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"

	"members/internal/push"
)

// pushCmd: `members push vapid-keys` prints a new VAPID key pair for
// --vapid-private-key (docs/flight-alerts.md): the private key, a tab,
// the public key browsers subscribe with.
func pushCmd(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "vapid-keys" {
		fmt.Fprintln(stderr, "usage: members push vapid-keys")
		return errors.New("push: want vapid-keys")
	}
	fs := flag.NewFlagSet("push vapid-keys", flag.ContinueOnError)
	if err := parse(fs, args[1:], stderr); err != nil {
		return err
	}
	private, err := push.NewPrivateKey()
	if err != nil {
		return err
	}
	keys, err := push.ParseKeys(private, "mailto:keys@example.com")
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s\t%s\n", keys.Private, keys.Public)
	return nil
}

// testPushServiceAllowed refuses --test-push-service unless both the
// listen address and the stand-in's URL are loopback addresses: it lets
// the server call that address for any member's subscription.
func testPushServiceAllowed(addr, service string) error {
	if err := loopbackOnly(addr); err != nil {
		return errors.New("--test-push-service needs a loopback --addr (tests only)")
	}
	u, err := url.Parse(service)
	if err != nil || u.Host == "" || !push.IsLoopbackHost(u.Hostname()) {
		return fmt.Errorf("--test-push-service %q: not a loopback URL (tests only)", service)
	}
	return nil
}
