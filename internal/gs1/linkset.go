package gs1

// LinksetType is the media type of a linkset in JSON (RFC 9264 §4.2).
const LinksetType = "application/linkset+json"

// Linkset is the JSON linkset (RFC 9264 §4.2) describing an entry's links
// for the request's anchor (its Digital Link URI): one context object
// whose link relation types are the GS1 link types' URIs, each an array of
// target objects with href and, where known, title, hreflang and context.
// A lot's links come first under their type, as they win.
func (e *Entry) Linkset(anchor, lot string) map[string]any {
	ctx := map[string]any{"anchor": anchor}
	for _, links := range [][]Target{e.Lots[lot], e.Links} {
		for _, l := range links {
			rel := ExpandLinkType(l.LinkType)
			target := map[string]any{"href": l.Href}
			if l.Title != "" {
				target["title"] = l.Title
			}
			if l.Language != "" {
				target["hreflang"] = []string{l.Language}
			}
			if l.Context != "" {
				target["context"] = []string{l.Context}
			}
			list, _ := ctx[rel].([]any)
			ctx[rel] = append(list, target)
		}
	}
	return map[string]any{"linkset": []any{ctx}}
}
