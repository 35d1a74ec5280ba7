package pass

import (
	"reflect"
	"testing"
)

func TestKeepPeriods(t *testing.T) {
	type item struct {
		name    string
		periods []int
	}
	periods := func(i *item) *[]int { return &i.periods }
	even := func(p *int) bool { return *p%2 == 0 }
	doubled := func(p *int) bool { *p *= 2; return *p < 10 }
	for _, tc := range []struct {
		name string
		in   []item
		keep func(*int) bool
		want []item
	}{
		{"nothing", nil, even, []item{}},
		{"keeps the matching periods only", []item{{"a", []int{1, 2, 3, 4}}}, even, []item{{"a", []int{2, 4}}}},
		{"drops an item left without periods", []item{{"a", []int{1, 3}}, {"b", []int{2}}}, even, []item{{"b", []int{2}}}},
		{"keeps the change keep made to a period", []item{{"a", []int{1, 4, 7}}}, doubled, []item{{"a", []int{2, 8}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := append([]item(nil), tc.in...)
			if got := KeepPeriods(in, periods, tc.keep); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}
