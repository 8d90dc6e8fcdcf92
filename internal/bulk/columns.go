package bulk

import (
	"fmt"
	"slices"
	"strings"

	"github.com/squarely/squarely/internal/codes"
	"github.com/squarely/squarely/internal/payload"
)

// A spreadsheet's columns: which header names map to which fields of a
// code (docs/API.md "Bulk generation").

// styleColumns are the style fields a row may set (docs/API.md "Style
// fields"; a logo needs an upload, so logoSize does nothing here).
var styleColumns = []string{
	"fgColor", "bgColor", "gradientColor", "gradientType", "gradientAngle", "gradientOnEyes", "dotShape", "cornerShape", "innerCornerShape",
	"outerCornerColor", "innerCornerColor", "enableFrame", "frameText", "frameColor", "frameTextColor", "frameStyle",
}

// rowColumns are the columns about the row rather than its content.
var rowColumns = []string{"name", "fileName", "dynamic", "brandKit", "shortCode"}

// knownColumns maps each column a header may name, lower-cased, to its
// field name: the type, every generator type's fields (under their form
// names, codes.FormKey), the row columns and the style fields.
var knownColumns = func() map[string]string {
	m := map[string]string{}
	add := func(n string) { m[strings.ToLower(n)] = n }
	add("type")
	m["qrtype"] = "type"
	for _, n := range rowColumns {
		add(n)
	}
	for _, t := range payload.Types() {
		for _, f := range payload.FieldNames(t) {
			add(codes.FormKey(t, f))
		}
	}
	for _, n := range styleColumns {
		add(n)
	}
	return m
}()

// Columns maps a header to field names ("" for an unnamed column, which
// is ignored), or says what is wrong with it.
func Columns(header []string) ([]string, string) {
	cols := make([]string, len(header))
	seen := map[string]bool{}
	hasContent := false
	for i, h := range header {
		if h == "" {
			continue // an unnamed column is ignored, as spreadsheets leave them
		}
		name, ok := knownColumns[strings.ToLower(h)]
		if !ok {
			return nil, fmt.Sprintf("Unknown column %q in the header row: the first row must name the columns (type, url, text, name, fileName, dynamic, brandKit, shortCode, the type fields and the style fields)", truncate(h, 40))
		}
		if seen[name] {
			return nil, fmt.Sprintf("The column %q appears twice in the header row", name)
		}
		seen[name] = true
		cols[i] = name
		if !slices.Contains(rowColumns, name) && !slices.Contains(styleColumns, name) {
			hasContent = true
		}
	}
	if !hasContent {
		return nil, "The header row must name a type or content column, such as url or text"
	}
	return cols, ""
}

// values are a row's cells by field name.
func values(row Row, cols []string) map[string]string {
	v := map[string]string{}
	for i, c := range row.Cells {
		if i < len(cols) && cols[i] != "" {
			v[cols[i]] = c
		}
	}
	return v
}

// column is the column a refusal of a type t row's field is shown in:
// the type's, its first field's for what the encoder refuses, the url's
// for a dynamic code's destination, else the field's own.
func column(t, field string) string {
	switch field {
	case "qrType":
		return "type"
	case "destination":
		return "url"
	case "data", "":
		return codes.FormKey(t, payload.FieldNames(t)[0])
	}
	if slices.Contains(payload.FieldNames(t), field) {
		return codes.FormKey(t, field)
	}
	return field
}

// truncate cuts s, valid UTF-8, to at most n bytes at a character boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "")
}
