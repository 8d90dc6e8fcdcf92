package codes

import (
	"encoding/json"
	"strings"
)

// styleValues is st as form values, keyed by field name (booleans as
// true/false), read through its JSON so that every field is included.
func styleValues(st Style) map[string]string {
	b, _ := json.Marshal(st)
	var m map[string]any
	json.Unmarshal(b, &m)
	out := make(map[string]string, len(m))
	for k, v := range m {
		switch x := v.(type) {
		case string:
			out[k] = x
		default:
			b, _ := json.Marshal(x)
			out[k] = string(b)
		}
	}
	return out
}

// UnderKit fills the empty style fields of values from the kit's style.
func UnderKit(values map[string]string, st Style) {
	for k, v := range styleValues(st) {
		if strings.TrimSpace(values[k]) == "" {
			values[k] = v
		}
	}
}
