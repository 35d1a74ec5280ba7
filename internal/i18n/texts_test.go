package i18n

import "testing"

// A stored name is a message key or the operator's texts: Text reads
// both, an operator's text missing in a language falls back to English.
func TestTextReadsKeysAndTexts(t *testing.T) {
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	stored := Texts{JP: "関西パス", EN: "Kansai pass", KR: ""}.Encode()
	for _, tc := range []struct {
		lang         Lang
		stored, want string
	}{
		{JP, stored, "関西パス"},
		{EN, stored, "Kansai pass"},
		{KR, stored, "Kansai pass"},
		{TH, stored, "Kansai pass"},
		{EN, "validation.required", c.T(EN, "validation.required")},
		{JP, "{not json", "{not json"},
	} {
		if got := c.Text(tc.lang, tc.stored); got != tc.want {
			t.Errorf("Text(%s, %s) = %q, want %q", tc.lang, tc.stored, got, tc.want)
		}
	}
	back, ok := DecodeTexts(stored)
	if !ok || !back.Equal(Texts{JP: "関西パス", EN: "Kansai pass", KR: ""}) {
		t.Fatalf("decode: %v %v", back, ok)
	}
	if all := c.TextsOf("validation.required"); len(all) != len(Langs) || all[JP] != c.T(JP, "validation.required") {
		t.Fatalf("TextsOf a key = %v", all)
	}
}
