package app

import (
	"context"

	"members/internal/account"
	"members/internal/httpapi"
	"members/internal/store"
)

// DemoMembersFeedSecret signs the members provisioning feed of a --demo
// server started without --members-feed-secret (docs/airline-feeds.md).
// Never used outside --demo.
const DemoMembersFeedSecret = "demo-members-feed-secret" // #nosec G101 -- the documented demo value, not a credential

// Provisioning is the booking site's members provisioning (the feed and
// the members import): the account service's rules, reset links and
// mails over the provisioning store.
func (a *App) Provisioning(cfg Config) (*account.Provisioner, error) {
	mailer, tpl, err := a.mailing(cfg)
	if err != nil {
		return nil, err
	}
	publicURL := cfg.PublicURL
	if publicURL == "" {
		publicURL = DefaultPublicURL
	}
	svc := account.NewService(account.Deps{
		Store: store.NewAccountStore(a.DB), Sessions: a.Auth, Hasher: a.Auth.Hasher(), Countries: a.Countries,
		Mailer: mailer, Templates: tpl, Counters: a.Counters, Now: a.DB.Now, Logger: a.Logger, PublicURL: publicURL,
		EmailChanges: store.NewEmailChangeStore(a.DB), Security: securityRecorder{a},
	})
	return account.NewProvisioner(svc, store.NewProvisionStore(a.DB)), nil
}

// wireMembersFeed mounts the members provisioning feed (after
// wireSecurity: an erasure goes through the account deletion's path).
func (a *App) wireMembersFeed(_ context.Context, cfg Config, f *Features) error {
	cur, prev := cfg.MembersFeedSecret, cfg.MembersFeedSecretPrevious
	if cur == "" && cfg.Demo {
		cur = DemoMembersFeedSecret
	}
	prov, err := a.Provisioning(cfg)
	if err != nil {
		return err
	}
	feed := &httpapi.MembersFeed{
		Provisioner: prov, Privacy: a.Privacy, Catalog: a.Catalog,
		Secrets: httpapi.FeedSecrets{Current: []byte(cur), Previous: []byte(prev)},
		Now:     a.DB.Now, Logger: a.Logger,
	}
	f.RootMounts = append(f.RootMounts, feed.Mount)
	// Signed server to server: no member session (the API walks know it).
	f.Anonymous = append(f.Anonymous, "PUT "+httpapi.MembersFeedPath, "DELETE "+httpapi.MembersFeedPath,
		"POST "+httpapi.MembersFeedPath+"/deactivate", "POST "+httpapi.MembersFeedPath+"/reactivate")
	return nil
}
