package pages

import (
	"fmt"
	"net/url"
	"time"
)

// ICS is the event as an RFC 5545 calendar: one VEVENT whose DTSTART and
// DTEND carry the event's TZID, and a VTIMEZONE for that zone holding
// every offset change in the event's first and last years (vtimezone), so
// the local times stay right across a DST change. uid identifies the event
// (stable across edits); now is DTSTAMP; pageURL is the page's address.
func ICS(e *EventContent, uid, pageURL string, now time.Time) ([]byte, error) {
	loc, err := loadZone(e.TimeZone)
	if err != nil {
		return nil, fmt.Errorf("pages: event time zone: %w", err)
	}
	start, err := parseLocal(e.Start)
	if err != nil {
		return nil, err
	}
	end, err := parseLocal(e.End)
	if err != nil {
		return nil, err
	}
	var b vbuilder
	b.line("BEGIN:VCALENDAR")
	b.line("VERSION:2.0")
	b.line("PRODID:-//Squarely//Hosted pages//EN")
	b.line("CALSCALE:GREGORIAN")
	b.line("METHOD:PUBLISH")
	tzid := loc.String()
	utc := loc == time.UTC
	if !utc {
		vtimezone(&b, loc, start.Year(), end.Year())
	}
	b.line("BEGIN:VEVENT")
	b.line("UID:" + uid)
	b.line("DTSTAMP:" + now.UTC().Format("20060102T150405Z"))
	if utc {
		b.line("DTSTART:" + start.Format("20060102T150405Z"))
		b.line("DTEND:" + end.Format("20060102T150405Z"))
	} else {
		b.line("DTSTART;TZID=" + tzid + ":" + start.Format("20060102T150405"))
		b.line("DTEND;TZID=" + tzid + ":" + end.Format("20060102T150405"))
	}
	b.line("SUMMARY:" + vEscape(e.Title))
	if loc := joinNonEmpty(e.Venue, e.Address); loc != "" {
		b.line("LOCATION:" + vEscape(loc))
	}
	if e.Description != "" {
		b.line("DESCRIPTION:" + vEscape(e.Description))
	}
	if pageURL != "" {
		b.line("URL:" + pageURL)
	}
	b.line("END:VEVENT")
	b.line("END:VCALENDAR")
	return []byte(b.String()), nil
}

func joinNonEmpty(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + ", " + b
}

// vtimezone writes loc's VTIMEZONE for an event from the year from to the
// year to: the offset in force on 1 January of from, then each change
// until the end of to, as they are (no RRULE), so it is exact for the
// event's start and end. An event that lasts past the next year gets its
// first and its last year only, each from its 1 January: the years between
// hold neither its start nor its end (RFC 5545 lets a VTIMEZONE cover only
// what its events use). It listed them all, 1.7 MB for an event from the
// year 1 to 9999, built anew for each download.
func vtimezone(b *vbuilder, loc *time.Location, from, to int) {
	b.line("BEGIN:VTIMEZONE")
	b.line("TZID:" + loc.String())
	spans := [][2]int{{from, to}}
	if to > from+1 {
		spans = [][2]int{{from, from}, {to, to}}
	}
	for i, span := range spans {
		t := time.Date(span[0], 1, 1, 0, 0, 0, 0, loc)
		limit := time.Date(span[1]+1, 1, 1, 0, 0, 0, 0, loc)
		_, prev := t.Zone()
		if i > 0 {
			// The last year's 1 January, from the offset just before it.
			_, before := t.Add(-time.Second).Zone()
			observance(b, t.In(time.FixedZone("", before)), before, t)
		} else {
			observance(b, t, prev, t)
		}
		for {
			next := nextChange(t, limit)
			if next.IsZero() || !next.Before(limit) {
				break
			}
			t = next
			observance(b, t.In(time.FixedZone("", prev)), prev, t)
			_, prev = t.Zone()
		}
	}
	b.line("END:VTIMEZONE")
}

// nextChange is the first instant after t (an instant on a whole second)
// and before limit at which t's zone changes its offset, name or DST
// flag; zero when there is none. ZoneBounds past a zone's listed
// transitions (after 2040, say) may answer an end where nothing changes
// (a year's start), or one at or before t, which looped here for ever:
// the first is passed over, and from the second it looks a day at a time
// and bisects to the second.
func nextChange(t, limit time.Time) time.Time {
	loc := t.Location()
	name, off := t.Zone()
	dst := t.IsDST()
	same := func(u time.Time) bool {
		n, o := u.Zone()
		return n == name && o == off && u.IsDST() == dst
	}
	for u := t; u.Before(limit); {
		_, next := u.ZoneBounds()
		switch {
		case next.IsZero():
			return next
		case next.After(u):
			if !same(next) {
				return next
			}
			u = next
			continue
		}
		lo, end := u.Unix(), limit.Unix()
		for lo < end {
			hi := min(lo+24*60*60, end)
			if same(time.Unix(hi, 0).In(loc)) {
				lo = hi
				continue
			}
			for hi-lo > 1 {
				if mid := lo + (hi-lo)/2; same(time.Unix(mid, 0).In(loc)) {
					lo = mid
				} else {
					hi = mid
				}
			}
			return time.Unix(hi, 0).In(loc)
		}
		break
	}
	return time.Time{}
}

// observance writes the period starting at instant at (whose wall clock
// in the old offset, from, is DTSTART) with at's zone as TZOFFSETTO.
func observance(b *vbuilder, wall time.Time, from int, at time.Time) {
	name, to := at.Zone()
	kind := "STANDARD"
	if at.IsDST() {
		kind = "DAYLIGHT"
	}
	b.line("BEGIN:" + kind)
	b.line("DTSTART:" + wall.Format("20060102T150405"))
	b.line("TZOFFSETFROM:" + offset(from))
	b.line("TZOFFSETTO:" + offset(to))
	if name != "" && name[0] != '+' && name[0] != '-' {
		b.line("TZNAME:" + name)
	}
	b.line("END:" + kind)
}

func offset(sec int) string {
	sign := "+"
	if sec < 0 {
		sign, sec = "-", -sec
	}
	s := fmt.Sprintf("%s%02d%02d", sign, sec/3600, sec/60%60)
	if sec%60 != 0 {
		s += fmt.Sprintf("%02d", sec%60)
	}
	return s
}

// GoogleCalendarURL is a link that opens the event in Google Calendar's
// "add event" form.
func GoogleCalendarURL(e *EventContent, pageURL string) string {
	start, err1 := parseLocal(e.Start)
	end, err2 := parseLocal(e.End)
	if err1 != nil || err2 != nil {
		return ""
	}
	q := url.Values{}
	q.Set("action", "TEMPLATE")
	q.Set("text", e.Title)
	q.Set("dates", start.Format("20060102T150405")+"/"+end.Format("20060102T150405"))
	if e.TimeZone != "" {
		q.Set("ctz", e.TimeZone)
	}
	details := e.Description
	if pageURL != "" {
		details = joinNonEmpty(details, pageURL)
	}
	if details != "" {
		q.Set("details", details)
	}
	if l := joinNonEmpty(e.Venue, e.Address); l != "" {
		q.Set("location", l)
	}
	return "https://calendar.google.com/calendar/render?" + q.Encode()
}
