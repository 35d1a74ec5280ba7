package brand

import (
	"testing"

	"members/internal/i18n"
)

func TestLoad(t *testing.T) {
	b, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if b.Name(i18n.JP) != "Peach メンバーズ" || b.Airline != "Peach Aviation" {
		t.Errorf("brand = %+v", b)
	}
	if r, g, bl, err := RGB(b.Colors.Accent); err != nil || r != 0xa3 || g != 0x18 || bl != 0x6b {
		t.Errorf("accent = %d %d %d %v", r, g, bl, err)
	}
	if _, _, _, err := RGB("red"); err == nil {
		t.Error("RGB(red) accepted")
	}
}
