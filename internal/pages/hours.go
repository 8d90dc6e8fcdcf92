package pages

import (
	"strconv"
	"time"
)

// Hours are a business's opening hours by weekday ("mon" … "sun"): each
// day's intervals in the page's time zone. An interval whose close is not
// after its open runs past midnight into the next day ("22:00"–"02:00");
// "24:00" closes at midnight.
type Hours map[string][]Interval

// Interval is one opening, "HH:MM" to "HH:MM".
type Interval struct {
	Open  string `json:"open"`
	Close string `json:"close"`
}

// weekdays by time.Weekday.
var weekdays = [7]string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}

// DayNames are the weekdays as a page lists them, from Monday.
var DayNames = [7]struct{ Key, Name string }{
	{"mon", "Monday"}, {"tue", "Tuesday"}, {"wed", "Wednesday"}, {"thu", "Thursday"},
	{"fri", "Friday"}, {"sat", "Saturday"}, {"sun", "Sunday"},
}

func minutes(hhmm string) int {
	if len(hhmm) != 5 {
		return -1
	}
	h, err1 := strconv.Atoi(hhmm[:2])
	m, err2 := strconv.Atoi(hhmm[3:])
	if err1 != nil || err2 != nil {
		return -1
	}
	return h*60 + m
}

// OpenAt reports whether the hours say open at instant now, read in the
// time zone zone (an IANA name). known is false when the zone is unknown or
// no hours are given: the page then says nothing.
func (h Hours) OpenAt(zone string, now time.Time) (open, known bool) {
	loc, err := loadZone(zone)
	if err != nil || len(h) == 0 {
		return false, false
	}
	local := now.In(loc)
	m := local.Hour()*60 + local.Minute()
	today := weekdays[local.Weekday()]
	yesterday := weekdays[(local.Weekday()+6)%7]
	for _, in := range h[today] {
		o, c := minutes(in.Open), minutes(in.Close)
		if o < 0 || c < 0 {
			continue
		}
		if c > o && m >= o && m < c || c <= o && m >= o {
			return true, true
		}
	}
	for _, in := range h[yesterday] {
		o, c := minutes(in.Open), minutes(in.Close)
		if o >= 0 && c >= 0 && c <= o && m < c {
			return true, true
		}
	}
	return false, true
}
