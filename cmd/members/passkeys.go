package main

import (
	"flag"
	"strings"

	"members/internal/app"
)

// passkeyFlags are the WebAuthn relying party's settings. Both default to
// --public-url: its host is the relying party id, its origin the one
// origin ceremonies may come from.
func passkeyFlags(fs *flag.FlagSet, cfg *app.Config) {
	fs.StringVar(&cfg.PasskeyRPID, "passkey-rp-id", envOr("MEMBERS_PASSKEY_RP_ID", ""),
		"WebAuthn relying party id, a registrable domain such as example.com (env MEMBERS_PASSKEY_RP_ID); default: the host of --public-url")
	fs.Func("passkey-origins", "comma-separated origins passkey ceremonies may come from, such as https://members.example.com (env MEMBERS_PASSKEY_ORIGINS); default: the origin of --public-url",
		func(v string) error { cfg.PasskeyOrigins = splitOrigins(v); return nil })
	cfg.PasskeyOrigins = splitOrigins(envOr("MEMBERS_PASSKEY_ORIGINS", ""))
}

func splitOrigins(v string) []string {
	var out []string
	for _, o := range strings.Split(v, ",") {
		if o = strings.TrimRight(strings.TrimSpace(o), "/"); o != "" {
			out = append(out, o)
		}
	}
	return out
}
