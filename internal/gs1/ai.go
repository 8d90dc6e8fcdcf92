package gs1

import (
	"fmt"
	"strconv"
	"strings"
)

// Role is where an AI sits in a Digital Link URI.
type Role int

const (
	// PrimaryKey is the identifier the URI is about: AI (01), the GTIN.
	PrimaryKey Role = iota
	// KeyQualifier refines the key in the path, in GS1's order.
	KeyQualifier
	// DataAttribute is data about the item, in the query string.
	DataAttribute
)

// AI is one Application Identifier Squarely reads and writes.
type AI struct {
	Code  string // "10"
	Field string // the form field that carries it: "lot"
	Title string // GS1's data title
	Role  Role
	// Numeric values have exactly Min..Max digits (dates: 6); others are
	// CSET 82 (GS1 General Specifications §7.11, Figure 7.11-1) of
	// Min..Max characters.
	Numeric  bool
	Min, Max int
	Date     bool // YYMMDD
	// DayZero allows DD = 00 ("the last day of the month"), which GS1
	// permits for best-before, sell-by and expiry dates but not for
	// production or packaging dates (§3.4.3 – §3.4.7).
	DayZero bool
}

// AIs is the table of the Application Identifiers Squarely supports with
// the GTIN, from GS1 General Specifications §3.2 and the Digital Link
// standard's key qualifier table:
//
//   - key qualifiers of AI (01), in the path in this order: (22) consumer
//     product variant, (10) batch or lot number, (21) serial number;
//   - data attributes, in the query string: (11) production date, (13)
//     packaging date, (15) best before date, (16) sell by date, (17)
//     expiration date, (30) variable count, (3103) net weight in kg with
//     three decimals.
//
// Other AIs (and other primary keys such as SSCC or GLN) are refused.
var AIs = []AI{
	{Code: "01", Field: "gtin", Title: "GTIN", Role: PrimaryKey, Numeric: true, Min: 14, Max: 14},
	{Code: "22", Field: "cpv", Title: "CPV", Role: KeyQualifier, Min: 1, Max: 20},
	{Code: "10", Field: "lot", Title: "BATCH/LOT", Role: KeyQualifier, Min: 1, Max: 20},
	{Code: "21", Field: "serial", Title: "SERIAL", Role: KeyQualifier, Min: 1, Max: 20},
	{Code: "11", Field: "productionDate", Title: "PROD DATE", Role: DataAttribute, Numeric: true, Min: 6, Max: 6, Date: true},
	{Code: "13", Field: "packagingDate", Title: "PACK DATE", Role: DataAttribute, Numeric: true, Min: 6, Max: 6, Date: true},
	{Code: "15", Field: "bestBefore", Title: "BEST BEFORE or BEST BY", Role: DataAttribute, Numeric: true, Min: 6, Max: 6, Date: true, DayZero: true},
	{Code: "16", Field: "sellBy", Title: "SELL BY", Role: DataAttribute, Numeric: true, Min: 6, Max: 6, Date: true, DayZero: true},
	{Code: "17", Field: "expiry", Title: "USE BY or EXPIRY", Role: DataAttribute, Numeric: true, Min: 6, Max: 6, Date: true, DayZero: true},
	{Code: "30", Field: "count", Title: "VAR. COUNT", Role: DataAttribute, Numeric: true, Min: 1, Max: 8},
	{Code: "3103", Field: "netWeightKg", Title: "NET WEIGHT (kg)", Role: DataAttribute, Numeric: true, Min: 6, Max: 6},
}

// ByCode returns the AI with code c.
func ByCode(c string) (AI, bool) {
	for _, a := range AIs {
		if a.Code == c {
			return a, true
		}
	}
	return AI{}, false
}

// ByField returns the AI a form field carries.
func ByField(f string) (AI, bool) {
	for _, a := range AIs {
		if a.Field == f {
			return a, true
		}
	}
	return AI{}, false
}

// cset82 holds GS1 AI encodable character set 82 (GS1 General
// Specifications Figure 7.11-1).
const cset82 = `!"%&'()*+,-./0123456789:;<=>?ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz`

// Problem returns the message refusing v as the value of a, in the GS1
// Syntax Engine's wording prefixed by the AI, or "".
func (a AI) Problem(v string) string {
	p := "AI (" + a.Code + "): "
	if a.Code == "01" {
		return GTINProblem(v)
	}
	if a.Numeric {
		if strings.Trim(v, "0123456789") != "" {
			return p + "A non-digit character was found where a digit is expected."
		}
	} else if i := strings.IndexFunc(v, func(r rune) bool { return !strings.ContainsRune(cset82, r) }); i >= 0 {
		return p + "A non-CSET 82 character was found where a CSET 82 character is expected."
	}
	switch {
	case len(v) < a.Min:
		return p + fmt.Sprintf("The component is shorter than the minimum length (%d) permitted by the GS1 AI syntax.", a.Min)
	case len(v) > a.Max:
		return p + fmt.Sprintf("The component is longer than the maximum length (%d) permitted by the GS1 AI syntax.", a.Max)
	}
	if a.Date {
		return dateProblem(p, v, a.DayZero)
	}
	return ""
}

// dateProblem checks a YYMMDD date (GS1 General Specifications §7.12:
// the century follows from a sliding window, so any two-digit year is
// valid).
func dateProblem(p, v string, dayZero bool) string {
	yy, _ := strconv.Atoi(v[0:2])
	mm, _ := strconv.Atoi(v[2:4])
	dd, _ := strconv.Atoi(v[4:6])
	if mm < 1 || mm > 12 {
		return p + "The date contains an illegal month of the year."
	}
	if dd == 0 && dayZero {
		return ""
	}
	// The year 2000+yy only decides whether February has 29 days, and a
	// leap year is one in both centuries the sliding window may choose
	// (except 2100, which no date within 50 years reaches).
	days := [13]int{0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[mm]
	if mm == 2 && yy%4 == 0 {
		days = 29
	}
	if dd < 1 || dd > days {
		return p + "The date contains an illegal day of the month."
	}
	return ""
}
