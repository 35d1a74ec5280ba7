package oidcprovider

import (
	"net/url"
	"slices"
	"time"

	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"
)

// LoginPath is where the library sends the browser after it has checked
// and stored an authorization request: the members' area decides there
// whether the member is signed in and may go straight back (the id is the
// request's).
const LoginPath = "/oidc/login"

// opClient is a Client as the library sees it: a confidential web client
// of the code flow only (no implicit or hybrid flow), with exact redirect
// URIs.
type opClient struct {
	c Client
}

var _ op.Client = opClient{}

func (c opClient) GetID() string                    { return c.c.ID }
func (c opClient) RedirectURIs() []string           { return slices.Clone(c.c.RedirectURIs) }
func (c opClient) PostLogoutRedirectURIs() []string { return slices.Clone(c.c.PostLogoutRedirectURIs) }
func (c opClient) ApplicationType() op.ApplicationType {
	return op.ApplicationTypeWeb
}

func (c opClient) AuthMethod() oidc.AuthMethod {
	if c.c.AuthMethod == AuthPrivateKeyJWT {
		return oidc.AuthMethodPrivateKeyJWT
	}
	return oidc.AuthMethodBasic
}

func (c opClient) ResponseTypes() []oidc.ResponseType {
	return []oidc.ResponseType{oidc.ResponseTypeCode}
}

func (c opClient) GrantTypes() []oidc.GrantType {
	return []oidc.GrantType{oidc.GrantTypeCode, oidc.GrantTypeRefreshToken}
}

func (c opClient) LoginURL(id string) string {
	return LoginPath + "?" + url.Values{"id": {id}}.Encode()
}

func (c opClient) AccessTokenType() op.AccessTokenType { return op.AccessTokenTypeBearer }
func (c opClient) IDTokenLifetime() time.Duration      { return IDTokenLifetime }

// DevMode is off: http redirect URIs are taken only for this confidential
// client, as the library allows, and never custom schemes.
func (c opClient) DevMode() bool { return false }

func (c opClient) RestrictAdditionalIdTokenScopes() func([]string) []string {
	return func(s []string) []string { return s }
}

func (c opClient) RestrictAdditionalAccessTokenScopes() func([]string) []string {
	return func(s []string) []string { return s }
}

// IsScopeAllowed admits the provider's own scope beside the standard ones
// (the library drops any other).
func (c opClient) IsScopeAllowed(scope string) bool { return scope == ScopeMembership }

// IDTokenUserinfoClaimsAssertion puts the granted claims in the ID token
// as well: the booking site signs the member in from it alone.
func (c opClient) IDTokenUserinfoClaimsAssertion() bool { return true }
func (c opClient) ClockSkew() time.Duration             { return 0 }
