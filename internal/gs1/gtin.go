package gs1

import "strings"

// GTINLengths are the lengths a GTIN may be written with: GTIN-8, GTIN-12
// (UPC-A), GTIN-13 (EAN-13) and GTIN-14.
var GTINLengths = []int{8, 12, 13, 14}

// Messages about a GTIN, in the GS1 Syntax Engine's wording.
const (
	MsgGTINRequired   = "AI (01): A GTIN is required."
	MsgGTINLength     = "AI (01): A GTIN has 8, 12, 13 or 14 digits."
	MsgGTINDigit      = "AI (01): A non-digit character was found where a digit is expected."
	MsgGTINCheckDigit = "AI (01): The numeric check digit is incorrect."
)

// CheckDigit is the GS1 mod-10 check digit of digits (the GTIN without its
// last digit): from the right, weights 3, 1, 3, …; the digit brings the
// sum to a multiple of ten (GS1 General Specifications §7.9.1). digits
// must hold only '0'-'9'.
func CheckDigit(digits string) byte {
	sum := 0
	for i := range len(digits) {
		d := int(digits[len(digits)-1-i] - '0')
		if i%2 == 0 {
			d *= 3
		}
		sum += d
	}
	return byte('0' + (10-sum%10)%10)
}

// GTINProblem returns the message refusing s as a GTIN, or "" for a GTIN
// of 8, 12, 13 or 14 digits whose check digit is right.
func GTINProblem(s string) string {
	switch {
	case s == "":
		return MsgGTINRequired
	case strings.Trim(s, "0123456789") != "":
		return MsgGTINDigit
	case len(s) != 8 && len(s) != 12 && len(s) != 13 && len(s) != 14:
		return MsgGTINLength
	case CheckDigit(s[:len(s)-1]) != s[len(s)-1]:
		return MsgGTINCheckDigit
	}
	return ""
}

// GTIN14 pads a valid GTIN with leading zeros to the 14 digits a Digital
// Link URI carries (GS1 Digital Link §4.5: "GTIN-8, -12 and -13 are padded
// to 14 digits").
func GTIN14(s string) string {
	return strings.Repeat("0", max(0, 14-len(s))) + s
}
