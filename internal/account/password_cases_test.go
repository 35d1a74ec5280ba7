package account

import (
	"encoding/json"
	"os"
	"testing"

	"members/internal/validate"
)

// The password rule is defined once for both sides: the web form's test
// (web/src/features/account/rules.test.ts) reads the same table.
func TestNewPasswordSharedCases(t *testing.T) {
	b, err := os.ReadFile("../../testdata/passwords.json")
	if err != nil {
		t.Fatal(err)
	}
	var table struct {
		Cases []struct {
			Password string  `json:"password"`
			Want     *string `json:"want"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(b, &table); err != nil {
		t.Fatal(err)
	}
	names := map[string]string{"validation.required": "required", "account.password_length": "length", "account.password_chars": "chars"}
	for _, c := range table.Cases {
		e := validate.Errors{}
		checkNewPassword(e, "password", c.Password)
		got := ""
		if m, ok := e["password"]; ok {
			got = names[m.Key]
			if got == "" {
				got = m.Key
			}
		}
		want := ""
		if c.Want != nil {
			want = *c.Want
		}
		if got != want {
			t.Errorf("password %q: got %q, want %q", c.Password, got, want)
		}
	}
}
