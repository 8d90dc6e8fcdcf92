package config

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// settingName is how a variable is written in a table of
// docs/configuration.md: in backquotes, upper case.
var settingName = regexp.MustCompile("`([A-Z][A-Z0-9_]*)`")

// documentedSettings returns the variables in the first column of the
// tables of docs/configuration.md.
func documentedSettings(t *testing.T) map[string]bool {
	t.Helper()
	doc, err := os.ReadFile("../../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for line := range strings.Lines(string(doc)) {
		cells := strings.Split(line, "|")
		if !strings.HasPrefix(line, "|") || len(cells) < 3 {
			continue
		}
		for _, m := range settingName.FindAllStringSubmatch(cells[1], -1) {
			names[m[1]] = true
		}
	}
	return names
}

// readSettings returns every variable Load asks for, with nothing set and
// with everything set (so a variable read only once another is set counts).
func readSettings() map[string]bool {
	names := map[string]bool{}
	for _, value := range []string{"", "1"} {
		_, _ = Load(func(name string) string {
			names[name] = true
			return value
		})
	}
	return names
}

// TestConfigurationDocListsEverySetting keeps docs/configuration.md
// complete: every variable the config reads is in one of its tables, and
// every variable in its tables is read.
func TestConfigurationDocListsEverySetting(t *testing.T) {
	documented, read := documentedSettings(t), readSettings()
	if len(read) < 40 {
		t.Fatalf("Load asked for only %d variables: the recorder is broken", len(read))
	}
	var missing, unknown []string
	for name := range read {
		if !documented[name] {
			missing = append(missing, name)
		}
	}
	for name := range documented {
		if !read[name] {
			unknown = append(unknown, name)
		}
	}
	slices.Sort(missing)
	slices.Sort(unknown)
	if len(missing) > 0 {
		t.Errorf("docs/configuration.md has no table row for %s: add each with its default and meaning", strings.Join(missing, ", "))
	}
	if len(unknown) > 0 {
		t.Errorf("docs/configuration.md lists %s, which the config does not read", strings.Join(unknown, ", "))
	}
}
