package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"members/internal/app"
	"members/internal/oidcprovider"
	"members/internal/store"
)

const oidcUsage = `usage: members oidc clients <command> [flags]

The OpenID Connect provider's clients (the booking site, partners;
docs/security.md). Every command takes --db (env MEMBERS_DB).

commands:
  add            --name NAME --redirect-uri URI [--redirect-uri URI…]
                 [--first-party] [--backchannel-logout-uri URI]
                 [--post-logout-redirect-uri URI…]
                 [--auth-method client_secret_basic|private_key_jwt --jwks FILE]
                 prints CLIENT_ID<TAB>CLIENT_SECRET (the secret is shown
                 this once; empty for private_key_jwt)
  list           one line a client: CLIENT_ID<TAB>NAME<TAB>first-party or
                 third-party<TAB>AUTH_METHOD<TAB>REDIRECT_URIS (comma-separated)
                 <TAB>BACKCHANNEL_LOGOUT_URI
  remove ID      deletes the client with its grants and tokens
  rotate-secret ID
                 prints CLIENT_ID<TAB>CLIENT_SECRET; the old secret keeps
                 working for 24 hours
`

// listFlag collects a flag given several times.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error {
	*l = append(*l, strings.TrimSpace(v))
	return nil
}

// oidcCmd is `members oidc clients …`.
func oidcCmd(ctx context.Context, args []string, stdout, stderr io.Writer, logger *slog.Logger) error {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" {
		fmt.Fprint(stdout, oidcUsage)
		return nil
	}
	if args[0] != "clients" || len(args) < 2 {
		fmt.Fprint(stderr, oidcUsage)
		return fmt.Errorf("oidc: unknown command %q", strings.Join(args, " "))
	}
	name, rest := args[1], args[2:]
	fs := flag.NewFlagSet("oidc clients "+name, flag.ContinueOnError)
	dsn := dbFlag(fs)
	var in oidcprovider.ClientInput
	var redirects, postLogout listFlag
	var jwks string
	switch name {
	case "add":
		fs.StringVar(&in.Name, "name", "", "the client's name, shown to members")
		fs.Var(&redirects, "redirect-uri", "a redirect URI, matched exactly (again for more)")
		fs.Var(&postLogout, "post-logout-redirect-uri", "where a logout may return, matched exactly (again for more)")
		fs.BoolVar(&in.FirstParty, "first-party", false, "the airline's own site: no consent page")
		fs.StringVar(&in.BackchannelLogoutURI, "backchannel-logout-uri", "", "where logout tokens are posted (back-channel logout)")
		fs.StringVar(&in.AuthMethod, "auth-method", oidcprovider.AuthSecretBasic, "client_secret_basic or private_key_jwt")
		fs.StringVar(&jwks, "jwks", "", "private_key_jwt: a file with the client's public keys (JSON Web Key Set)")
	case "list":
	case "remove", "rotate-secret":
	default:
		fmt.Fprint(stderr, oidcUsage)
		return fmt.Errorf("oidc clients: unknown command %q", name)
	}
	pos, err := parseArgs(fs, rest, stderr)
	if err != nil {
		return err
	}
	var id string
	switch {
	case name == "remove" || name == "rotate-secret":
		if len(pos) != 1 {
			return fmt.Errorf("oidc clients %s: give the client id", name)
		}
		id = pos[0]
	case len(pos) > 0:
		return fmt.Errorf("oidc clients %s: unexpected argument %q", name, pos[0])
	}
	in.RedirectURIs, in.PostLogoutRedirectURIs = redirects, postLogout
	if jwks != "" {
		b, err := os.ReadFile(jwks) // #nosec G304 -- the operator's own key file, named on the command line
		if err != nil {
			return fmt.Errorf("--jwks: %w", err)
		}
		in.JWKS = b
	}
	a, err := app.Open(ctx, app.Options{DSN: *dsn, Logger: logger})
	if err != nil {
		return err
	}
	defer a.Close()
	clients := oidcprovider.NewClients(store.NewOIDCStore(a.DB), a.DB.Now)
	switch name {
	case "add":
		id, secret, err := clients.Add(ctx, in)
		if err != nil {
			return fmt.Errorf("oidc clients add: %w", err)
		}
		fmt.Fprintf(stdout, "%s\t%s\n", id, secret)
	case "list":
		list, err := clients.List(ctx)
		if err != nil {
			return err
		}
		for _, c := range list {
			party := "third-party"
			if c.FirstParty {
				party = "first-party"
			}
			fmt.Fprintf(stdout, "%s\t%s\t%s\t%s\t%s\t%s\n", c.ID, c.Name, party, c.AuthMethod, strings.Join(c.RedirectURIs, ","), c.BackchannelLogoutURI)
		}
	case "remove":
		if err := clients.Remove(ctx, id); errors.Is(err, oidcprovider.ErrNotFound) {
			return fmt.Errorf("oidc clients remove: no client %s", id)
		} else if err != nil {
			return err
		}
	case "rotate-secret":
		secret, err := clients.RotateSecret(ctx, id)
		if errors.Is(err, oidcprovider.ErrNotFound) {
			return fmt.Errorf("oidc clients rotate-secret: no client %s", id)
		} else if err != nil {
			return fmt.Errorf("oidc clients rotate-secret: %w", err)
		}
		fmt.Fprintf(stdout, "%s\t%s\n", id, secret)
	}
	return nil
}
