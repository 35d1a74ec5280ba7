package account

import "strings"

// CommonMailDomains are the providers members use most in the airline's
// markets; a typed domain close to one of them gets a "did you mean".
var CommonMailDomains = []string{
	"gmail.com", "yahoo.co.jp", "yahoo.com", "ymail.com", "hotmail.com", "hotmail.co.jp", "outlook.com",
	"outlook.jp", "live.com", "live.jp", "msn.com", "icloud.com", "me.com", "mac.com",
	"docomo.ne.jp", "ezweb.ne.jp", "au.com", "softbank.ne.jp", "i.softbank.jp", "ymobile.ne.jp",
	"nifty.com", "ocn.ne.jp", "biglobe.ne.jp", "so-net.ne.jp",
	"naver.com", "daum.net", "hanmail.net", "nate.com",
	"qq.com", "163.com", "126.com", "sina.com", "sohu.com", "foxmail.com",
	"yahoo.com.tw", "yahoo.com.hk", "hotmail.com.tw", "netvigator.com",
	"hotmail.co.th", "singnet.com.sg",
}

// MailSuggestion is the answer of /api/masters/mailSuggests.
type MailSuggestion struct {
	Domains    []string `json:"domains"`
	Suggestion string   `json:"suggestion,omitempty"`
}

// SuggestMail returns the common domains and, when the address's domain
// is a likely typo of one (gmial.com, gmail.con), the corrected address.
func SuggestMail(email string) MailSuggestion {
	out := MailSuggestion{Domains: CommonMailDomains}
	at := strings.LastIndexByte(email, '@')
	if at <= 0 || at == len(email)-1 {
		return out
	}
	local, domain := email[:at], strings.ToLower(email[at+1:])
	best, bestDist := "", 3
	for _, d := range CommonMailDomains {
		if d == domain {
			return out
		}
		// Allow one edit for short domains, two for longer ones.
		limit := 1
		if len(d) >= 8 {
			limit = 2
		}
		if dist := editDistance(domain, d); dist <= limit && dist < bestDist {
			best, bestDist = d, dist
		}
	}
	if best != "" {
		out.Suggestion = local + "@" + best
	}
	return out
}

// editDistance is the optimal-string-alignment distance: insertions,
// deletions, substitutions and transpositions of neighbours each cost 1.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
