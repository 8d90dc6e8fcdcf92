package store

import (
	"errors"
	"strconv"
	"strings"
)

// A rollup row keeps its dayTally as short text that a busy batch, which
// reads and writes a row for every code it met, handles several times
// faster than JSON. The first line is "<scans> <visitors>"; each other line
// is a tag and the pairs of one count map, "s 4 1 5 2" for the slots
// (quarter hour, scans) or "c \"DE\" 2 \"US\" 1" for a named map, whose
// keys are Go-quoted so any text survives.

// namedCounts are a tally's string-keyed maps with their tags.
func (t *dayTally) namedCounts() []struct {
	tag    byte
	counts *map[string]int64
} {
	return []struct {
		tag    byte
		counts *map[string]int64
	}{{'c', &t.Countries}, {'d', &t.Devices}, {'o', &t.OS}, {'b', &t.Browsers}, {'r', &t.Referrers}, {'R', &t.Routes},
		{'g', &t.Regions}, {'y', &t.Cities}}
}

func (t *dayTally) encode() string {
	b := make([]byte, 0, 64)
	b = strconv.AppendInt(b, t.Scans, 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, t.Visitors, 10)
	if len(t.Slots) > 0 {
		b = append(b, "\ns"...)
		for q, n := range t.Slots {
			b = append(b, ' ')
			b = strconv.AppendInt(b, int64(q), 10)
			b = append(b, ' ')
			b = strconv.AppendInt(b, n, 10)
		}
	}
	for _, m := range t.namedCounts() {
		if len(*m.counts) == 0 {
			continue
		}
		b = append(b, '\n', m.tag)
		for k, n := range *m.counts {
			b = append(b, ' ')
			b = strconv.AppendQuote(b, k)
			b = append(b, ' ')
			b = strconv.AppendInt(b, n, 10)
		}
	}
	return string(b)
}

var errTally = errors.New("malformed rollup tally")

func decodeTally(text string) (*dayTally, error) {
	t := &dayTally{}
	head, rest, more := strings.Cut(text, "\n")
	scans, visitors, ok := strings.Cut(head, " ")
	var err1, err2 error
	t.Scans, err1 = strconv.ParseInt(scans, 10, 64)
	t.Visitors, err2 = strconv.ParseInt(visitors, 10, 64)
	if !ok || err1 != nil || err2 != nil {
		return nil, errTally
	}
	for more {
		var line string
		line, rest, more = strings.Cut(rest, "\n")
		if line == "" {
			return nil, errTally
		}
		tag, pairs := line[0], line[1:]
		var counts *map[string]int64
		for _, m := range t.namedCounts() {
			if m.tag == tag {
				counts = m.counts
			}
		}
		if counts == nil && tag != 's' {
			return nil, errTally
		}
		for pairs != "" { // " <key> <count>" after " "
			if pairs[0] != ' ' {
				return nil, errTally
			}
			pairs = pairs[1:]
			var key string
			if counts != nil {
				quoted, err := strconv.QuotedPrefix(pairs)
				if err != nil {
					return nil, errTally
				}
				if key, err = strconv.Unquote(quoted); err != nil {
					return nil, errTally
				}
				pairs = pairs[len(quoted):]
			} else if i := strings.IndexByte(pairs, ' '); i > 0 {
				key, pairs = pairs[:i], pairs[i:]
			}
			if pairs == "" || pairs[0] != ' ' {
				return nil, errTally
			}
			pairs = pairs[1:]
			end := strings.IndexByte(pairs, ' ')
			if end < 0 {
				end = len(pairs)
			}
			n, err := strconv.ParseInt(pairs[:end], 10, 64)
			if err != nil {
				return nil, errTally
			}
			pairs = pairs[end:]
			if counts != nil {
				bump(counts, key, n)
				continue
			}
			q, err := strconv.Atoi(key)
			if err != nil || q < 0 || q >= 96 {
				return nil, errTally
			}
			bump(&t.Slots, q, n)
		}
	}
	return t, nil
}
