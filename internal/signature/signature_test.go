package signature_test

import (
	"errors"
	"strconv"
	"testing"
	"time"

	"members/internal/signature"
)

func TestVerify(t *testing.T) {
	secret, body := []byte("whsec_x"), []byte(`{"id":"evt_1"}`)
	now := time.Unix(1_800_000_000, 0)
	good := signature.Sign(secret, now, body)
	ts := "t=" + strconv.FormatInt(now.Unix(), 10)
	tol := 5 * time.Minute
	for _, c := range []struct {
		name   string
		secret []byte
		header string
		body   []byte
		now    time.Time
		want   error
	}{
		{"signed now", secret, good, body, now, nil},
		{"four minutes late", secret, good, body, now.Add(4 * time.Minute), nil},
		{"at the tolerance", secret, good, body, now.Add(tol), nil},
		{"four minutes early", secret, good, body, now.Add(-4 * time.Minute), nil},
		{"one of several signatures", secret, good + ",v1=00ff", body, now, nil},
		{"spaces around the parts", secret, " " + ts + " , v1=" + good[len(ts)+4:], body, now, nil},
		{"six minutes late", secret, good, body, now.Add(6 * time.Minute), signature.ErrStale},
		{"six minutes early", secret, good, body, now.Add(-6 * time.Minute), signature.ErrStale},
		{"other secret", []byte("whsec_y"), good, body, now, signature.ErrBad},
		{"empty secret", nil, signature.Sign(nil, now, body), body, now, signature.ErrBad},
		{"other body", secret, good, []byte(`{"id":"evt_2"}`), now, signature.ErrBad},
		{"no timestamp", secret, good[len(ts)+1:], body, now, signature.ErrBad},
		{"no signature", secret, ts, body, now, signature.ErrBad},
		{"not hex", secret, ts + ",v1=zz", body, now, signature.ErrBad},
		{"other timestamp", secret, "t=" + strconv.FormatInt(now.Unix()+1, 10) + good[len(ts):], body, now, signature.ErrBad},
		{"empty header", secret, "", body, now, signature.ErrBad},
		{"stale and wrong is wrong", secret, good, []byte("x"), now.Add(time.Hour), signature.ErrBad},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := signature.Verify(c.secret, c.header, c.body, c.now, tol); !errors.Is(err, c.want) {
				t.Fatalf("Verify = %v, want %v", err, c.want)
			}
		})
	}
}

func TestSignFormat(t *testing.T) {
	// the value an independent HMAC-SHA256 of "1.b" under "k" gives (openssl dgst -hmac)
	got := signature.Sign([]byte("k"), time.Unix(1, 0), []byte("b"))
	if want := "t=1,v1=2946e37a45bb02a0bf1bf1a7d9219543801fedd301f9f485aebd72c928639bea"; got != want {
		t.Fatalf("Sign = %s, want %s", got, want)
	}
}
