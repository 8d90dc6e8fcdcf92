// Package digests sends scheduled scan reports ("digests"): a member picks
// a scope, a frequency and a local hour in an IANA time zone, and each
// recipient gets the last period's figures by e-mail with the PDF and CSV
// attached.
//
// Schedule maths (this file): when the next digest goes out and which
// period it covers, worked out in the schedule's time zone so the local
// hour holds across daylight-saving changes. A local hour that does not
// exist that day (spring forward) sends at the first valid local time
// after it; an hour that happens twice (fall back) sends once, the first
// time.
package digests

import (
	"time"
)

// Frequencies.
const (
	Daily   = "daily"
	Weekly  = "weekly"
	Monthly = "monthly"
)

// Schedule is when a digest goes out: every day, every week on Weekday or
// on the first of every month, at Hour o'clock in Loc.
type Schedule struct {
	Frequency string
	Weekday   time.Weekday // weekly only
	Hour      int          // 0-23
	Loc       *time.Location
}

// sendsOn reports whether a digest goes out on the local date of day.
func (s Schedule) sendsOn(day time.Time) bool {
	switch s.Frequency {
	case Weekly:
		return day.Weekday() == s.Weekday
	case Monthly:
		return day.Day() == 1
	}
	return true
}

// at is the instant of the sending on the local date (y, m, d).
func (s Schedule) at(y int, m time.Month, d int) time.Time {
	t := time.Date(y, m, d, s.Hour, 0, 0, 0, s.Loc)
	if t.Hour() == s.Hour && t.Day() == d {
		// Fall back: the hour may happen twice; the earlier one wins.
		for _, back := range []time.Duration{time.Hour, 30 * time.Minute} {
			if e := t.Add(-back); e.Hour() == s.Hour && e.Day() == d && e.Minute() == 0 {
				return e
			}
		}
		return t
	}
	// The hour does not exist that day (spring forward): the first valid
	// local time after it is where the gap ends, whichever side of it
	// time.Date put t.
	start, end := t.ZoneBounds()
	if wall(t) < wall(time.Date(y, m, d, s.Hour, 0, 0, 0, time.UTC)) {
		return end
	}
	return start
}

// wall is t's local date and time as a comparable number.
func wall(t time.Time) int64 {
	y, m, d := t.Date()
	return (((int64(y)*12+int64(m))*31+int64(d))*24+int64(t.Hour()))*60 + int64(t.Minute())
}

// Next is the first sending strictly after after.
func (s Schedule) Next(after time.Time) time.Time {
	local := after.In(s.Loc)
	y, m, d := local.Date()
	// A month and a day cover every frequency's gap, DST included.
	for i := -1; i < 33; i++ {
		day := time.Date(y, m, d+i, 12, 0, 0, 0, s.Loc)
		if !s.sendsOn(day) {
			continue
		}
		if t := s.at(day.Year(), day.Month(), day.Day()); t.After(after) {
			return t
		}
	}
	panic("digests: no sending within a month") // unreachable: every frequency sends at least monthly
}

// Period is the range [from, to) a digest sent at sendAt covers: the day,
// week (the seven days) or calendar month before the sending's local date,
// in whole local days.
func (s Schedule) Period(sendAt time.Time) (from, to time.Time) {
	to = s.shift(sendAt, 0)
	return s.shift(to, -1), to
}

// Previous is the period before [from, to): as long in local days or
// months, so a week across a DST change is still seven days.
func (s Schedule) Previous(from time.Time) (time.Time, time.Time) {
	return s.shift(from, -1), from
}

// End is the end of the period that starts at from.
func (s Schedule) End(from time.Time) time.Time { return s.shift(from, 1) }

// shift is the local midnight n periods (days, weeks or months) after
// t's local date.
func (s Schedule) shift(t time.Time, n int) time.Time {
	y, m, d := t.In(s.Loc).Date()
	switch s.Frequency {
	case Weekly:
		d += 7 * n
	case Monthly:
		m += time.Month(n)
	default:
		d += n
	}
	return time.Date(y, m, d, 0, 0, 0, 0, s.Loc)
}

// LastFull is the latest whole period that has ended by now: what "send a
// test now" reports on.
func (s Schedule) LastFull(now time.Time) (from, to time.Time) {
	local := now.In(s.Loc)
	y, m, d := local.Date()
	for i := 0; i < 33; i++ {
		day := time.Date(y, m, d-i, 12, 0, 0, 0, s.Loc)
		if !s.sendsOn(day) {
			continue
		}
		if from, to := s.Period(day); !to.After(now) {
			return from, to
		}
	}
	panic("digests: no period within a month") // unreachable, as in Next
}
