package httpapi

import "strings"

// secretPathPrefixes are app paths whose rest is a bearer secret (a link
// from a mail): the reset link and the e-mail change links.
var secretPathPrefixes = []string{"/reset-password/", "/email-change/"}

// redactPath is the form of a URL path that may be written to a log or
// stored with a client report: the secret part of a mailed link, and any
// segment long enough to be a token (session, reset and hand-over tokens
// are 43 characters or more; ids and booking numbers are shorter), become
// "[redacted]". Query strings are never logged at all.
func redactPath(p string) string {
	for _, pre := range secretPathPrefixes {
		if strings.HasPrefix(p, pre) && p != pre+"invalid" {
			return pre + "[redacted]"
		}
	}
	if len(p) < tokenLike {
		return p
	}
	segs := strings.Split(p, "/")
	for i, seg := range segs {
		if len(seg) >= tokenLike {
			segs[i] = "[redacted]"
		}
	}
	return strings.Join(segs, "/")
}

// tokenLike is the shortest path segment treated as a possible secret: 256
// random bits in base64url are 43 characters; the 32-hex ids stay.
const tokenLike = 40
