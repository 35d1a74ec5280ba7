package masters

// Airport is an airport the airline flies to. Name is the English name,
// NameAlt the Japanese one; TimeZone is the UTC offset of local time.
type Airport struct {
	Code         string `json:"code"`
	Country      string `json:"country"`
	Name         string `json:"name"`
	NameAlt      string `json:"nameAlt"`
	ShortName    string `json:"shortName"`
	ShortNameAlt string `json:"shortNameAlt"`
	NickName     string `json:"nickName"`
	NickNameAlt  string `json:"nickNameAlt"`
	TimeZone     string `json:"timeZone"`
	// LocalName is ShortName in the request's language (set by LocalizedAirports).
	LocalName string `json:"localName,omitempty"`
}

// airports are in the airline's fixed display order.
var airports = []Airport{
	{"KIX", "JP", "Kansai International Airport", "関西国際空港", "Osaka (Kansai)", "大阪(関西)", "Osaka", "大阪", "+09:00", ""},
	{"MMB", "JP", "Memanbetsu Airport", "女満別空港", "Memanbetsu", "女満別", "Memanbetsu", "女満別", "+09:00", ""},
	{"KUH", "JP", "Kushiro Airport", "釧路空港", "Kushiro", "釧路", "Kushiro", "釧路", "+09:00", ""},
	{"CTS", "JP", "New Chitose Airport", "新千歳空港", "Sapporo (New Chitose)", "札幌(新千歳)", "Sapporo", "札幌", "+09:00", ""},
	{"SDJ", "JP", "Sendai Airport", "仙台空港", "Sendai", "仙台", "Sendai", "仙台", "+09:00", ""},
	{"KIJ", "JP", "Niigata Airport", "新潟空港", "Niigata", "新潟", "Niigata", "新潟", "+09:00", ""},
	{"NRT", "JP", "Narita International Airport", "成田国際空港", "Tokyo (Narita)", "東京(成田)", "Tokyo", "東京", "+09:00", ""},
	{"HND", "JP", "Haneda Airport", "羽田空港", "Tokyo (Haneda)", "東京(羽田)", "Tokyo", "東京", "+09:00", ""},
	{"NGO", "JP", "Chubu Centrair International Airport", "中部国際空港", "Nagoya (Centrair)", "名古屋(中部)", "Nagoya", "名古屋", "+09:00", ""},
	{"MYJ", "JP", "Matsuyama Airport", "松山空港", "Matsuyama", "松山", "Matsuyama", "松山", "+09:00", ""},
	{"FUK", "JP", "Fukuoka Airport", "福岡空港", "Fukuoka", "福岡", "Fukuoka", "福岡", "+09:00", ""},
	{"OIT", "JP", "Oita Airport", "大分空港", "Oita", "大分", "Oita", "大分", "+09:00", ""},
	{"NGS", "JP", "Nagasaki Airport", "長崎空港", "Nagasaki", "長崎", "Nagasaki", "長崎", "+09:00", ""},
	{"KMI", "JP", "Miyazaki Airport", "宮崎空港", "Miyazaki", "宮崎", "Miyazaki", "宮崎", "+09:00", ""},
	{"KOJ", "JP", "Kagoshima Airport", "鹿児島空港", "Kagoshima", "鹿児島", "Kagoshima", "鹿児島", "+09:00", ""},
	{"ASJ", "JP", "Amami Airport", "奄美空港", "Amami", "奄美", "Amami", "奄美", "+09:00", ""},
	{"OKA", "JP", "Naha Airport", "那覇空港", "Okinawa (Naha)", "沖縄(那覇)", "Okinawa", "沖縄", "+09:00", ""},
	{"ISG", "JP", "New Ishigaki Airport", "南ぬ島 石垣空港", "Ishigaki", "石垣", "Ishigaki", "石垣", "+09:00", ""},
	{"ICN", "KR", "Incheon International Airport", "仁川国際空港", "Seoul (Incheon)", "ソウル(仁川)", "Seoul", "ソウル", "+09:00", ""},
	{"GMP", "KR", "Gimpo International Airport", "金浦国際空港", "Seoul (Gimpo)", "ソウル(金浦)", "Seoul", "ソウル", "+09:00", ""},
	{"PUS", "KR", "Gimhae International Airport", "金海国際空港", "Busan", "釜山", "Busan", "釜山", "+09:00", ""},
	{"HKG", "HK", "Hong Kong International Airport", "香港国際空港", "Hong Kong", "香港", "Hong Kong", "香港", "+08:00", ""},
	{"TPE", "TW", "Taoyuan International Airport", "桃園国際空港", "Taipei (Taoyuan)", "台北(桃園)", "Taipei", "台北", "+08:00", ""},
	{"KHH", "TW", "Kaohsiung International Airport", "高雄国際空港", "Kaohsiung", "高雄", "Kaohsiung", "高雄", "+08:00", ""},
	{"PVG", "CN", "Shanghai Pudong International Airport", "上海浦東国際空港", "Shanghai (Pudong)", "上海(浦東)", "Shanghai", "上海", "+08:00", ""},
	{"BKK", "TH", "Suvarnabhumi Airport", "スワンナプーム国際空港", "Bangkok (Suvarnabhumi)", "バンコク(スワンナプーム)", "Bangkok", "バンコク", "+07:00", ""},
	{"SIN", "SG", "Singapore Changi Airport", "シンガポール・チャンギ国際空港", "Singapore", "シンガポール", "Singapore", "シンガポール", "+08:00", ""},
}

// Airports returns the airports in the fixed order.
func Airports() []Airport { return append([]Airport(nil), airports...) }

// AirportByCode returns the airport with code, and false when unknown.
func AirportByCode(code string) (Airport, bool) {
	// by index: ranging by value would copy every entry (nine strings
	// each) on the way, and the booking search asks this for every
	// segment's two airports
	for i := range airports {
		if airports[i].Code == code {
			return airports[i], true
		}
	}
	return Airport{}, false
}

// AirportRank returns an airport's position in the fixed order (unknown last).
func AirportRank(code string) int {
	for i, a := range airports {
		if a.Code == code {
			return i
		}
	}
	return len(airports)
}
