package scans

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/squarely/squarely/internal/store"
)

// RouteName is a route a scan event recorded ("rule:0", "split:1",
// "default", "ended") as the person who set up the routing knows it,
// for the analytics, their CSV and PDF: "Rule 1: iOS, DE", "Variant B
// 50%", "Destination", "After the end". rt is the code's routing now; a
// rule or variant it no longer has keeps its number alone.
func RouteName(route string, rt *store.Routing) string {
	switch route {
	case store.RouteDefault:
		return "Destination"
	case store.RouteEnded:
		return "After the end"
	}
	kind, num, _ := strings.Cut(route, ":")
	i, err := strconv.Atoi(num)
	if err != nil || i < 0 {
		return route
	}
	switch kind {
	case "rule":
		name := fmt.Sprintf("Rule %d", i+1)
		if rt != nil && i < len(rt.Rules) {
			if s := ruleSummary(rt.Rules[i].When); s != "" {
				name += ": " + s
			}
		}
		return name
	case "split":
		name := VariantName(i)
		if rt != nil && i < len(rt.Split) {
			name += fmt.Sprintf(" %d%%", rt.Split[i].Weight)
		}
		return name
	}
	return route
}

// VariantName is a split's variant by its place, lettered as the app
// shows it: "Variant A", "Variant B", …
func VariantName(i int) string {
	if i < 26 {
		return "Variant " + string(rune('A'+i))
	}
	return "Variant " + strconv.Itoa(i+1)
}

// osLabels are the operating systems as the app's rule editor names them.
var osLabels = map[string]string{"ios": "iOS", "android": "Android", "windows": "Windows", "macos": "macOS", "linux": "Linux", "other": "Other"}

// maxSummary bounds a rule's summary, so a rule with 50 countries still
// names a table row.
const maxSummary = 40

// ruleSummary is a rule's conditions in short, in the editor's order:
// "iOS, DE, AT, mon, tue, 09:00–17:00".
func ruleSummary(w store.RuleWhen) string {
	var parts []string
	for _, os := range w.OS {
		parts = append(parts, osLabels[os])
	}
	parts = append(parts, w.Country...)
	parts = append(parts, w.Language...)
	parts = append(parts, w.Days...)
	if w.From != "" {
		parts = append(parts, w.From+"–"+w.To)
	}
	s := strings.Join(parts, ", ")
	if r := []rune(s); len(r) > maxSummary {
		s = string(r[:maxSummary-1]) + "…"
	}
	return s
}
