package booking

// ValidUntil exposes validUntil to the tests.
var ValidUntil = validUntil

// SealLogin signs any claims as a sign-on token from the booking site.
func (h *Handover) SealLogin(c HandoverClaims) (string, error) { return h.seal(inbound, c) }

// SealOutbound signs any claims as a hand-over token to the booking site.
func (h *Handover) SealOutbound(c HandoverClaims) (string, error) { return h.seal(outbound, c) }
