package scans

import (
	"testing"

	"github.com/squarely/squarely/internal/store"
)

func TestRouteNamesAsThePersonSeesThem(t *testing.T) {
	rt := &store.Routing{
		Rules: []store.RoutingRule{
			{When: store.RuleWhen{OS: []string{"ios"}}},
			{When: store.RuleWhen{Country: []string{"DE", "AT"}, Days: []string{"mon"}, From: "09:00", To: "17:00"}},
			{When: store.RuleWhen{Country: []string{"AD", "AE", "AF", "AG", "AI", "AL", "AM", "AO", "AQ", "AR", "AS", "AT", "AU", "AW"}}},
		},
		Split: []store.SplitVariant{{Weight: 50}, {Weight: 50}},
	}
	for route, want := range map[string]string{
		"rule:0":  "Rule 1: iOS",
		"rule:1":  "Rule 2: DE, AT, mon, 09:00–17:00",
		"rule:2":  "Rule 3: AD, AE, AF, AG, AI, AL, AM, AO, AQ, AR,…",
		"rule:7":  "Rule 8",
		"split:1": "Variant B 50%",
		"split:4": "Variant E",
		"default": "Destination",
		"ended":   "After the end",
		"rule:x":  "rule:x",
		"other:1": "other:1",
	} {
		if got := RouteName(route, rt); got != want {
			t.Errorf("RouteName(%q) = %q, want %q", route, got, want)
		}
	}
	if got := RouteName("rule:0", nil); got != "Rule 1" {
		t.Errorf("without routing: %q", got)
	}
}
