package masters

import "members/internal/i18n"

// airportShortNames are the airports' short names in the languages that
// are neither English (ShortName) nor Japanese (ShortNameAlt): kr, cn, tw,
// hk, th in that order. Every page, mail and PDF names an airport through
// AirportShortName, so one member sees one name everywhere.
var airportShortNames = map[string][5]string{
	"KIX": {"오사카(간사이)", "大阪(关西)", "大阪(關西)", "大阪(關西)", "โอซาก้า (คันไซ)"},
	"MMB": {"메만베쓰", "女满别", "女滿別", "女滿別", "เมมัมเบ็ตสึ"},
	"KUH": {"구시로", "钏路", "釧路", "釧路", "คุชิโระ"},
	"CTS": {"삿포로(신치토세)", "札幌(新千岁)", "札幌(新千歲)", "札幌(新千歲)", "ซัปโปโร (นิวชิโตเสะ)"},
	"SDJ": {"센다이", "仙台", "仙台", "仙台", "เซนได"},
	"KIJ": {"니가타", "新潟", "新潟", "新潟", "นีงาตะ"},
	"NRT": {"도쿄(나리타)", "东京(成田)", "東京(成田)", "東京(成田)", "โตเกียว (นาริตะ)"},
	"HND": {"도쿄(하네다)", "东京(羽田)", "東京(羽田)", "東京(羽田)", "โตเกียว (ฮาเนดะ)"},
	"NGO": {"나고야(주부)", "名古屋(中部)", "名古屋(中部)", "名古屋(中部)", "นาโกย่า (จูบุ)"},
	"MYJ": {"마쓰야마", "松山", "松山", "松山", "มัตสึยามะ"},
	"FUK": {"후쿠오카", "福冈", "福岡", "福岡", "ฟุกุโอกะ"},
	"OIT": {"오이타", "大分", "大分", "大分", "โออิตะ"},
	"NGS": {"나가사키", "长崎", "長崎", "長崎", "นางาซากิ"},
	"KMI": {"미야자키", "宫崎", "宮崎", "宮崎", "มิยาซากิ"},
	"KOJ": {"가고시마", "鹿儿岛", "鹿兒島", "鹿兒島", "คาโกชิมะ"},
	"ASJ": {"아마미", "奄美", "奄美", "奄美", "อามามิ"},
	"OKA": {"오키나와(나하)", "冲绳(那霸)", "沖繩(那霸)", "沖繩(那霸)", "โอกินาวา (นาฮะ)"},
	"ISG": {"이시가키", "石垣", "石垣", "石垣", "อิชิงากิ"},
	"ICN": {"서울(인천)", "首尔(仁川)", "首爾(仁川)", "首爾(仁川)", "โซล (อินชอน)"},
	"GMP": {"서울(김포)", "首尔(金浦)", "首爾(金浦)", "首爾(金浦)", "โซล (กิมโป)"},
	"PUS": {"부산", "釜山", "釜山", "釜山", "ปูซาน"},
	"HKG": {"홍콩", "香港", "香港", "香港", "ฮ่องกง"},
	"TPE": {"타이베이(타오위안)", "台北(桃园)", "台北(桃園)", "台北(桃園)", "ไทเป (เถาหยวน)"},
	"KHH": {"가오슝", "高雄", "高雄", "高雄", "เกาสง"},
	"PVG": {"상하이(푸둥)", "上海(浦东)", "上海(浦東)", "上海(浦東)", "เซี่ยงไฮ้ (ผู่ตง)"},
	"BKK": {"방콕(수완나품)", "曼谷(素万那普)", "曼谷(蘇凡納布)", "曼谷(蘇凡納布)", "กรุงเทพฯ (สุวรรณภูมิ)"},
	"SIN": {"싱가포르", "新加坡", "新加坡", "新加坡", "สิงคโปร์"},
}

// AirportShortName is an airport's short name in lang, or the code when
// the airport is unknown.
func AirportShortName(code string, lang i18n.Lang) string {
	a, ok := AirportByCode(code)
	if !ok {
		return code
	}
	names := airportShortNames[code] // the columns: KR, CN, TW, HK, TH
	var local string
	switch lang {
	case i18n.JP:
		return a.ShortNameAlt
	case i18n.EN, i18n.SG:
		return a.ShortName
	case i18n.KR:
		local = names[0]
	case i18n.CN:
		local = names[1]
	case i18n.TW:
		local = names[2]
	case i18n.HK:
		local = names[3]
	case i18n.TH:
		local = names[4]
	}
	if local != "" {
		return local
	}
	return a.ShortName
}

// LocalizedAirports returns the airports in the fixed order with LocalName
// set to the short name in lang.
func LocalizedAirports(lang i18n.Lang) []Airport {
	out := Airports()
	for i := range out {
		out[i].LocalName = AirportShortName(out[i].Code, lang)
	}
	return out
}
