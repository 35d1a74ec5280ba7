package postal

import "testing"

func TestLookup(t *testing.T) {
	tab := New()
	for _, c := range []struct {
		country, zip string
		want         Address
		ok           bool
	}{
		{"JP", "5490001", Address{"大阪府", "泉佐野市", "泉州空港北"}, true},
		{"JP", "549-0001", Address{"大阪府", "泉佐野市", "泉州空港北"}, true},
		{"JP", "１００－０００１", Address{"東京都", "千代田区", "千代田"}, true},
		{"JP", "0000000", Address{}, false},
		{"JP", "54900", Address{}, false},
		{"JP", "abc", Address{}, false},
		{"KR", "04524", Address{}, false},
	} {
		got, ok, err := tab.Lookup(c.country, c.zip)
		if err != nil || ok != c.ok || got != c.want {
			t.Errorf("Lookup(%s, %s) = %+v %v %v, want %+v %v", c.country, c.zip, got, ok, err, c.want, c.ok)
		}
	}
}

func TestAddressInLanguage(t *testing.T) {
	kix := Address{"大阪府", "泉佐野市", "泉州空港北"}
	for _, c := range []struct {
		lang string
		want Address
	}{
		{"jp", kix}, {"cn", kix}, {"tw", kix}, {"hk", kix},
		{"en", Address{Prefecture: "Osaka"}}, {"sg", Address{Prefecture: "Osaka"}},
		{"kr", Address{Prefecture: "Osaka"}}, {"th", Address{Prefecture: "Osaka"}},
	} {
		if got := kix.In(c.lang); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.lang, got, c.want)
		}
	}
	// Every prefecture of the table has its Latin name.
	tab := New()
	tab.once.Do(tab.load)
	for zip, a := range tab.jp {
		if zip == "000info" { // the table's version line
			continue
		}
		if latinPrefectures[a.Prefecture] == "" {
			t.Fatalf("%s: no Latin name for %q", zip, a.Prefecture)
		}
	}
}
