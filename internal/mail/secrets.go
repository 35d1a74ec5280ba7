package mail

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
)

// Secret is a value inside a stored message that the outbox keeps only
// until the message is sent or given up (a voucher PIN, the token of a
// single-use link): the stored subject, bodies and headers hold
// Placeholder in its place, and the Value is kept apart, substituted when
// the message is delivered and deleted in the transaction that records
// the delivery or the giving up (store.MailOutbox). After that the stored
// message reads Placeholder, which says what happened to it.
type Secret struct {
	Placeholder string `json:"p"`
	Value       string `json:"v"`
}

// secretMark is the start of every placeholder; a random suffix makes
// each one unique, so no text a member typed (a name) can collide with it.
const secretMark = "[removed after sending "

// Seal replaces each of m.Secrets in m's subject, bodies and header values
// by a placeholder of its own and returns the sealed message (without
// Secrets) and the secrets. A secret that appears nowhere in m is an
// error: the caller named a value the mail does not carry, and the
// outbox would keep what it was meant to forget under another spelling.
func Seal(m Message) (Message, []Secret, error) {
	if len(m.Secrets) == 0 {
		return m, nil, nil
	}
	out := m
	out.Secrets = nil
	if m.Headers != nil {
		out.Headers = make(map[string]string, len(m.Headers))
		for k, v := range m.Headers {
			out.Headers[k] = v
		}
	}
	var secrets []Secret
	for _, v := range m.Secrets {
		if v == "" {
			continue
		}
		b := make([]byte, 6)
		if _, err := rand.Read(b); err != nil {
			return Message{}, nil, fmt.Errorf("mail: seal: %w", err)
		}
		s := Secret{Placeholder: secretMark + hex.EncodeToString(b) + "]", Value: v}
		found := false
		replace := func(text *string) {
			if strings.Contains(*text, v) {
				*text = strings.ReplaceAll(*text, v, s.Placeholder)
				found = true
			}
		}
		replace(&out.Subject)
		replace(&out.Text)
		replace(&out.HTML)
		for k, h := range out.Headers {
			replace(&h)
			out.Headers[k] = h
		}
		if !found {
			return Message{}, nil, fmt.Errorf("mail: seal: a secret of the %s mail is not in it", m.Kind)
		}
		secrets = append(secrets, s)
	}
	return out, secrets, nil
}

// Unseal puts the secrets back into a sealed message.
func Unseal(m Message, secrets []Secret) Message {
	if len(secrets) == 0 {
		return m
	}
	if m.Headers != nil {
		h := make(map[string]string, len(m.Headers))
		for k, v := range m.Headers {
			h[k] = v
		}
		m.Headers = h
	}
	for _, s := range secrets {
		m.Subject = strings.ReplaceAll(m.Subject, s.Placeholder, s.Value)
		m.Text = strings.ReplaceAll(m.Text, s.Placeholder, s.Value)
		m.HTML = strings.ReplaceAll(m.HTML, s.Placeholder, s.Value)
		for k, v := range m.Headers {
			m.Headers[k] = strings.ReplaceAll(v, s.Placeholder, s.Value)
		}
	}
	return m
}
