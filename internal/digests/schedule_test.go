package digests

import (
	"testing"
	"time"
	_ "time/tzdata" // the tests name IANA zones
)

func zone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func utc(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

// Walking an injected clock day by day across both DST changes of 2026 in
// two zones: each sending is at the local hour (or, on spring-forward day
// when the hour does not exist, at the first valid time after it), once a
// day, and never twice for the repeated hour.
func TestNextAcrossDSTInTwoZones(t *testing.T) {
	for _, tc := range []struct {
		zone string
		hour int
		// special days: local date -> the wall time expected that day
		special map[string]string
	}{
		// New York springs forward at 02:00 on 8 March (02:00-03:00 does
		// not exist) and falls back at 02:00 on 1 November (01:00-02:00
		// happens twice).
		{"America/New_York", 2, map[string]string{"2026-03-08": "03:00 EDT", "2026-11-01": "02:00 EST"}},
		{"America/New_York", 1, map[string]string{"2026-11-01": "01:00 EDT"}},
		// Berlin springs forward at 02:00 on 29 March and falls back at
		// 03:00 on 25 October (02:00-03:00 happens twice).
		{"Europe/Berlin", 2, map[string]string{"2026-03-29": "03:00 CEST", "2026-10-25": "02:00 CEST"}},
		{"Europe/Berlin", 9, nil},
	} {
		loc := zone(t, tc.zone)
		s := Schedule{Frequency: Daily, Hour: tc.hour, Loc: loc}
		clock := time.Date(2026, 1, 1, 0, 0, 0, 0, loc)
		seen := map[string]bool{}
		for range 365 {
			next := s.Next(clock)
			if !next.After(clock) {
				t.Fatalf("%s: Next(%v) = %v, not after", tc.zone, clock, next)
			}
			local := next.In(loc)
			day := local.Format(time.DateOnly)
			if seen[day] {
				t.Fatalf("%s %d: two sendings on %s", tc.zone, tc.hour, day)
			}
			seen[day] = true
			want := time.Date(2000, 1, 1, tc.hour, 0, 0, 0, time.UTC).Format("15:04")
			got := local.Format("15:04")
			if w, ok := tc.special[day]; ok {
				got, want = local.Format("15:04 MST"), w
			}
			if got != want {
				t.Errorf("%s hour %d on %s: sent at %s, want %s", tc.zone, tc.hour, day, got, want)
			}
			// The clock moves a minute past the sending, as a runner's would.
			clock = next.Add(time.Minute)
		}
		if len(seen) != 365 {
			t.Errorf("%s: %d sending days in a year", tc.zone, len(seen))
		}
	}
}

func TestNextWeeklyAndMonthly(t *testing.T) {
	ny := zone(t, "America/New_York")
	weekly := Schedule{Frequency: Weekly, Weekday: time.Monday, Hour: 9, Loc: ny}
	// Sunday 8 March 2026 (spring forward): next Monday 9:00 EDT = 13:00 UTC.
	if got := weekly.Next(utc("2026-03-08T12:00:00Z")); !got.Equal(utc("2026-03-09T13:00:00Z")) {
		t.Errorf("weekly next = %v", got)
	}
	// At the sending itself: the one a week later.
	if got := weekly.Next(utc("2026-03-09T13:00:00Z")); !got.Equal(utc("2026-03-16T13:00:00Z")) {
		t.Errorf("weekly next after sending = %v", got)
	}
	from, to := weekly.Period(utc("2026-03-09T13:00:00Z"))
	if from.Format(time.RFC3339) != "2026-03-02T00:00:00-05:00" || to.Format(time.RFC3339) != "2026-03-09T00:00:00-04:00" {
		t.Errorf("weekly period %v to %v", from, to)
	}
	if to.Sub(from) != 7*24*time.Hour-time.Hour {
		t.Errorf("the week of the change is %v long", to.Sub(from))
	}
	pf, pt := weekly.Previous(from)
	if pf.Format(time.RFC3339) != "2026-02-23T00:00:00-05:00" || !pt.Equal(from) {
		t.Errorf("previous %v to %v", pf, pt)
	}

	tokyo := zone(t, "Asia/Tokyo")
	monthly := Schedule{Frequency: Monthly, Hour: 0, Loc: tokyo}
	next := monthly.Next(utc("2026-01-31T15:00:00Z")) // 1 Feb 00:00 Tokyo exactly: not after
	if !next.Equal(utc("2026-02-28T15:00:00Z")) {
		t.Errorf("monthly next = %v", next)
	}
	from, to = monthly.Period(next)
	if from.Format(time.DateOnly) != "2026-02-01" || to.Format(time.DateOnly) != "2026-03-01" {
		t.Errorf("monthly period %v to %v", from, to)
	}
	pf, _ = monthly.Previous(from)
	if pf.Format(time.DateOnly) != "2026-01-01" {
		t.Errorf("monthly previous from %v", pf)
	}
}

func TestLastFull(t *testing.T) {
	berlin := zone(t, "Europe/Berlin")
	for _, tc := range []struct {
		s        Schedule
		now      string
		from, to string
	}{
		// Thursday: the last whole Monday-to-Sunday week.
		{Schedule{Frequency: Weekly, Weekday: time.Monday, Hour: 9, Loc: berlin}, "2026-03-12T10:00:00Z", "2026-03-02", "2026-03-09"},
		// Monday 00:30 local: the week that just ended, before the 9:00 sending.
		{Schedule{Frequency: Weekly, Weekday: time.Monday, Hour: 9, Loc: berlin}, "2026-03-08T23:30:00Z", "2026-03-02", "2026-03-09"},
		{Schedule{Frequency: Daily, Hour: 9, Loc: berlin}, "2026-03-12T10:00:00Z", "2026-03-11", "2026-03-12"},
		{Schedule{Frequency: Monthly, Hour: 9, Loc: berlin}, "2026-03-12T10:00:00Z", "2026-02-01", "2026-03-01"},
	} {
		from, to := tc.s.LastFull(utc(tc.now))
		if from.Format(time.DateOnly) != tc.from || to.Format(time.DateOnly) != tc.to || from.Location() != berlin {
			t.Errorf("%s at %s: %v to %v, want %s to %s", tc.s.Frequency, tc.now, from, to, tc.from, tc.to)
		}
	}
}
