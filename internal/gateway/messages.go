package gateway

// The customer pages' text in the product's eight languages (jp en sg kr
// cn tw hk th); a missing key or language falls back to English. A test
// checks that every language has every key.

// Languages are the page languages (the product's language codes).
var Languages = []string{"jp", "en", "sg", "kr", "cn", "tw", "hk", "th"}

// enMessages are the English text, also Singapore's (sg).
var enMessages = map[string]string{
	"sandbox":           "Test environment: no real money moves.",
	"merchant":          "Shop",
	"amount":            "Amount",
	"reference":         "Order",
	"card":              "Card",
	"deadline":          "Pay by",
	"challenge.title":   "Confirm your payment",
	"challenge.intro":   "Your card issuer asks you to confirm this payment.",
	"challenge.approve": "Approve",
	"challenge.fail":    "Fail authentication",
	"qr.title":          "Pay with %s",
	"qr.intro":          "Scan this code with the %s app and confirm the payment there.",
	"qr.alt":            "QR code for this payment",
	"pay.now":           "Pay now",
	"pay.now.hint":      "Stands in for paying in the app or at the counter.",
	"pay.cancel":        "Cancel payment",
	"pay.later":         "Back to the shop, pay later",
	"slip.title":        "Payment slip",
	"slip.intro":        "Pay at a convenience store, an ATM or by net banking (Pay-easy) before the deadline.",
	"slip.receipt":      "Receipt number (convenience store)",
	"slip.biller":       "Biller number (Pay-easy)",
	"slip.customer":     "Customer number (Pay-easy)",
	"slip.confirm":      "Confirmation number (Pay-easy)",
	"status.title":      "Payment",
	"status.done":       "This payment is complete.",
	"status.failed":     "This payment did not go through.",
	"status.expired":    "This payment expired before it was paid.",
	"status.other":      "This payment is not waiting for you.",
	"back":              "Return to the shop",
	"notfound":          "This payment does not exist.",
}

var messages = map[string]map[string]string{
	"en": enMessages,
	"sg": enMessages,
	"jp": {
		"sandbox":           "テスト環境です。実際の請求は発生しません。",
		"merchant":          "ショップ",
		"amount":            "金額",
		"reference":         "注文番号",
		"card":              "カード",
		"deadline":          "お支払い期限",
		"challenge.title":   "お支払いの確認",
		"challenge.intro":   "カード会社がこのお支払いの確認を求めています。",
		"challenge.approve": "承認する",
		"challenge.fail":    "認証に失敗させる",
		"qr.title":          "%sで支払う",
		"qr.intro":          "%sアプリでこのコードを読み取り、アプリでお支払いを確定してください。",
		"qr.alt":            "このお支払いのQRコード",
		"pay.now":           "今すぐ支払う",
		"pay.now.hint":      "アプリや店頭でのお支払いの代わりです。",
		"pay.cancel":        "お支払いをキャンセル",
		"pay.later":         "ショップに戻り、後で支払う",
		"slip.title":        "払込票",
		"slip.intro":        "お支払い期限までに、コンビニ、ATM、ネットバンキング（ペイジー）でお支払いください。",
		"slip.receipt":      "受付番号（コンビニ）",
		"slip.biller":       "収納機関番号（ペイジー）",
		"slip.customer":     "お客様番号（ペイジー）",
		"slip.confirm":      "確認番号（ペイジー）",
		"status.title":      "お支払い",
		"status.done":       "このお支払いは完了しています。",
		"status.failed":     "このお支払いは完了しませんでした。",
		"status.expired":    "このお支払いは期限切れになりました。",
		"status.other":      "このお支払いはお客様の操作を待っていません。",
		"back":              "ショップに戻る",
		"notfound":          "このお支払いは存在しません。",
	},
	"kr": {
		"sandbox":           "테스트 환경입니다. 실제 금액은 청구되지 않습니다.",
		"merchant":          "상점",
		"amount":            "금액",
		"reference":         "주문 번호",
		"card":              "카드",
		"deadline":          "결제 기한",
		"challenge.title":   "결제 확인",
		"challenge.intro":   "카드사에서 이 결제의 확인을 요청합니다.",
		"challenge.approve": "승인",
		"challenge.fail":    "인증 실패",
		"qr.title":          "%s(으)로 결제",
		"qr.intro":          "%s 앱으로 이 코드를 스캔하고 앱에서 결제를 확인하세요.",
		"qr.alt":            "이 결제의 QR 코드",
		"pay.now":           "지금 결제",
		"pay.now.hint":      "앱이나 매장에서의 결제를 대신합니다.",
		"pay.cancel":        "결제 취소",
		"pay.later":         "상점으로 돌아가 나중에 결제",
		"slip.title":        "결제 전표",
		"slip.intro":        "기한 내에 편의점, ATM 또는 인터넷 뱅킹(Pay-easy)으로 결제하세요.",
		"slip.receipt":      "접수 번호(편의점)",
		"slip.biller":       "수납 기관 번호(Pay-easy)",
		"slip.customer":     "고객 번호(Pay-easy)",
		"slip.confirm":      "확인 번호(Pay-easy)",
		"status.title":      "결제",
		"status.done":       "이 결제는 완료되었습니다.",
		"status.failed":     "이 결제는 처리되지 않았습니다.",
		"status.expired":    "이 결제는 결제 전에 만료되었습니다.",
		"status.other":      "이 결제는 고객님의 조작을 기다리고 있지 않습니다.",
		"back":              "상점으로 돌아가기",
		"notfound":          "이 결제는 존재하지 않습니다.",
	},
	"cn": {
		"sandbox":           "测试环境：不会产生实际扣款。",
		"merchant":          "商店",
		"amount":            "金额",
		"reference":         "订单号",
		"card":              "银行卡",
		"deadline":          "付款期限",
		"challenge.title":   "确认付款",
		"challenge.intro":   "您的发卡机构要求您确认此笔付款。",
		"challenge.approve": "批准",
		"challenge.fail":    "验证失败",
		"qr.title":          "使用%s付款",
		"qr.intro":          "请用%s应用扫描此二维码，并在应用中确认付款。",
		"qr.alt":            "此笔付款的二维码",
		"pay.now":           "立即付款",
		"pay.now.hint":      "代替在应用或柜台付款。",
		"pay.cancel":        "取消付款",
		"pay.later":         "返回商店，稍后付款",
		"slip.title":        "付款单",
		"slip.intro":        "请在付款期限前于便利店、ATM或网上银行（Pay-easy）付款。",
		"slip.receipt":      "受理编号（便利店）",
		"slip.biller":       "收款机构编号（Pay-easy）",
		"slip.customer":     "客户编号（Pay-easy）",
		"slip.confirm":      "确认编号（Pay-easy）",
		"status.title":      "付款",
		"status.done":       "此笔付款已完成。",
		"status.failed":     "此笔付款未成功。",
		"status.expired":    "此笔付款在支付前已过期。",
		"status.other":      "此笔付款无需您操作。",
		"back":              "返回商店",
		"notfound":          "此笔付款不存在。",
	},
	"tw": {
		"sandbox":           "測試環境：不會產生實際扣款。",
		"merchant":          "商店",
		"amount":            "金額",
		"reference":         "訂單編號",
		"card":              "信用卡",
		"deadline":          "付款期限",
		"challenge.title":   "確認付款",
		"challenge.intro":   "您的發卡機構要求您確認此筆付款。",
		"challenge.approve": "核准",
		"challenge.fail":    "驗證失敗",
		"qr.title":          "使用%s付款",
		"qr.intro":          "請用%s應用程式掃描此條碼，並在應用程式中確認付款。",
		"qr.alt":            "此筆付款的QR碼",
		"pay.now":           "立即付款",
		"pay.now.hint":      "代替在應用程式或櫃檯付款。",
		"pay.cancel":        "取消付款",
		"pay.later":         "返回商店，稍後付款",
		"slip.title":        "繳費單",
		"slip.intro":        "請在付款期限前於便利商店、ATM或網路銀行（Pay-easy）付款。",
		"slip.receipt":      "受理編號（便利商店）",
		"slip.biller":       "收款機構編號（Pay-easy）",
		"slip.customer":     "客戶編號（Pay-easy）",
		"slip.confirm":      "確認編號（Pay-easy）",
		"status.title":      "付款",
		"status.done":       "此筆付款已完成。",
		"status.failed":     "此筆付款未成功。",
		"status.expired":    "此筆付款在支付前已逾期。",
		"status.other":      "此筆付款無需您操作。",
		"back":              "返回商店",
		"notfound":          "此筆付款不存在。",
	},
	"hk": {
		"sandbox":           "測試環境：不會產生實際收費。",
		"merchant":          "商店",
		"amount":            "金額",
		"reference":         "訂單編號",
		"card":              "信用卡",
		"deadline":          "付款期限",
		"challenge.title":   "確認付款",
		"challenge.intro":   "您的發卡機構要求您確認此筆付款。",
		"challenge.approve": "批准",
		"challenge.fail":    "驗證失敗",
		"qr.title":          "使用%s付款",
		"qr.intro":          "請用%s應用程式掃描此二維碼，並在應用程式中確認付款。",
		"qr.alt":            "此筆付款的二維碼",
		"pay.now":           "立即付款",
		"pay.now.hint":      "代替在應用程式或櫃位付款。",
		"pay.cancel":        "取消付款",
		"pay.later":         "返回商店，稍後付款",
		"slip.title":        "付款單",
		"slip.intro":        "請在付款期限前於便利店、ATM或網上銀行（Pay-easy）付款。",
		"slip.receipt":      "受理編號（便利店）",
		"slip.biller":       "收款機構編號（Pay-easy）",
		"slip.customer":     "客戶編號（Pay-easy）",
		"slip.confirm":      "確認編號（Pay-easy）",
		"status.title":      "付款",
		"status.done":       "此筆付款已完成。",
		"status.failed":     "此筆付款未成功。",
		"status.expired":    "此筆付款在支付前已過期。",
		"status.other":      "此筆付款無需您操作。",
		"back":              "返回商店",
		"notfound":          "此筆付款不存在。",
	},
	"th": {
		"sandbox":           "สภาพแวดล้อมทดสอบ: ไม่มีการเรียกเก็บเงินจริง",
		"merchant":          "ร้านค้า",
		"amount":            "จำนวนเงิน",
		"reference":         "หมายเลขคำสั่งซื้อ",
		"card":              "บัตร",
		"deadline":          "ชำระภายใน",
		"challenge.title":   "ยืนยันการชำระเงิน",
		"challenge.intro":   "ผู้ออกบัตรของคุณขอให้ยืนยันการชำระเงินนี้",
		"challenge.approve": "อนุมัติ",
		"challenge.fail":    "ยืนยันตัวตนไม่สำเร็จ",
		"qr.title":          "ชำระด้วย %s",
		"qr.intro":          "สแกนรหัสนี้ด้วยแอป %s แล้วยืนยันการชำระเงินในแอป",
		"qr.alt":            "คิวอาร์โค้ดสำหรับการชำระเงินนี้",
		"pay.now":           "ชำระเงินตอนนี้",
		"pay.now.hint":      "ใช้แทนการชำระในแอปหรือที่เคาน์เตอร์",
		"pay.cancel":        "ยกเลิกการชำระเงิน",
		"pay.later":         "กลับไปที่ร้านค้าและชำระภายหลัง",
		"slip.title":        "ใบแจ้งชำระเงิน",
		"slip.intro":        "ชำระที่ร้านสะดวกซื้อ ตู้ ATM หรือธนาคารออนไลน์ (Pay-easy) ก่อนกำหนด",
		"slip.receipt":      "หมายเลขรับชำระ (ร้านสะดวกซื้อ)",
		"slip.biller":       "หมายเลขผู้รับชำระ (Pay-easy)",
		"slip.customer":     "หมายเลขลูกค้า (Pay-easy)",
		"slip.confirm":      "หมายเลขยืนยัน (Pay-easy)",
		"status.title":      "การชำระเงิน",
		"status.done":       "การชำระเงินนี้เสร็จสมบูรณ์แล้ว",
		"status.failed":     "การชำระเงินนี้ไม่สำเร็จ",
		"status.expired":    "การชำระเงินนี้หมดอายุก่อนชำระ",
		"status.other":      "การชำระเงินนี้ไม่ได้รอการดำเนินการจากคุณ",
		"back":              "กลับไปที่ร้านค้า",
		"notfound":          "ไม่มีการชำระเงินนี้",
	},
}

// methodNames are the payment apps' own names, the same in every language
// except where the brand is written differently.
var methodNames = map[string]map[string]string{
	"rakuten_pay": {"en": "Rakuten Pay", "jp": "楽天ペイ"},
	"paypay":      {"en": "PayPay"},
	"d_payment":   {"en": "d Payment", "jp": "d払い"},
	"wechat":      {"en": "WeChat Pay", "cn": "微信支付", "tw": "微信支付", "hk": "微信支付"},
	"alipay":      {"en": "Alipay", "cn": "支付宝", "tw": "支付寶", "hk": "支付寶"},
	"unionpay":    {"en": "UnionPay", "cn": "银联", "tw": "銀聯", "hk": "銀聯"},
}

// htmlLang is the BCP 47 tag of each product language code.
var htmlLang = map[string]string{"jp": "ja", "en": "en", "sg": "en-SG", "kr": "ko", "cn": "zh-Hans", "tw": "zh-Hant-TW",
	"hk": "zh-Hant-HK", "th": "th"}

// lang returns a supported language or "en".
func lang(l string) string {
	if _, ok := messages[l]; ok {
		return l
	}
	return "en"
}

// t translates key into l (English when missing).
func t(l, key string) string {
	if s, ok := messages[l][key]; ok {
		return s
	}
	return messages["en"][key]
}

func methodName(l, method string) string {
	names := methodNames[method]
	if s, ok := names[l]; ok {
		return s
	}
	if s, ok := names["en"]; ok {
		return s
	}
	return method
}
