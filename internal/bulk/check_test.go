package bulk

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/codes"
	"github.com/squarely/squarely/internal/store"
)

// TestCheckRows: each row becomes a code to save or a refusal pinned to
// the column the user wrote it in.
func TestCheckRows(t *testing.T) {
	header := []string{"type", "URL", "text", "name", "dynamic", "fgColor", "address", "locationName", "brandKit", "fileName"}
	cols, problem := Columns(header)
	if problem != "" {
		t.Fatal(problem)
	}
	table := &Table{Header: header}
	for i, line := range []string{
		",https://a.example,,,,,,,,menu.png",              // 2: static url
		",https://b.example/x ,,Menu,true,,,,,",           // 3: dynamic
		"location,,,Shop code,,,1 Main St,Shop,,",         // 4: location's name under its form name
		",ftp://c.example,,,,,,,,",                        // 5: a field refused
		",,hello,,true,,,,,",                              // 6: dynamic without a url
		"location,,,,,,,Shop,,",                           // 7: the location's address missing
		",https://d.example,," + strings.Repeat("n", 101), // 8: name too long
		",https://e.example,,,,,,,Unknown,",               // 9: no such kit
		"pdf,,,,,,,,,",                                    // 10: needs an upload
		",https://f.example,,,,#FFFFFF,,,,",               // 11: does not scan
		"text,," + strings.Repeat("x", 3000) + ",,,,,,,",  // 12: too much text
		",https://g.example,,,maybe,,,,,",                 // 13: dynamic not a boolean
		",https://h.example,,,,,,,house,",                 // 14: a kit styles it
		"sms,,,,,,,,,",                                    // 15: blocked type
	} {
		table.Rows = append(table.Rows, Row{Line: i + 2, Cells: strings.Split(line, ",")})
	}
	house, err := codes.Style{FgColor: "#123456"}.Normalize() // as kits are kept
	if err != nil {
		t.Fatal(err)
	}
	c := Checker{
		Creator: &codes.Creator{
			BaseURL: "https://sq.example", Now: func() time.Time { return time.Date(2026, 3, 4, 0, 0, 0, 0, time.UTC) },
			ShortURL: func(d *store.DynamicCode) string { return "https://" + d.Domain + "/d/" + d.ShortCode },
		},
		User:      &store.User{ID: 1},
		Kits:      map[string]codes.Style{"house": house},
		Domain:    &store.Domain{ID: 3, Domain: "go.example.com"},
		EntryName: func(raw string) string { return strings.TrimSuffix(raw, ".png") },
	}
	items := c.Rows(context.Background(), table, cols)

	var got []string
	for _, it := range items {
		if it.Status == store.ItemFailed {
			got = append(got, it.Column)
		} else {
			got = append(got, "ok")
		}
	}
	want := "ok ok ok url dynamic address name brandKit type fgColor text dynamic ok type"
	if strings.Join(got, " ") != want {
		t.Fatalf("rows checked as\n%s\nwant\n%s\n(%+v)", strings.Join(got, " "), want, items)
	}

	static, dynamic, location, kit := items[0].Code, items[1].Code, items[2].Code, items[12].Code
	if static.Content != "https://a.example" || static.FileName != "menu" || static.Name != "Website 2026-03-04" || static.Style.ErrorCorrectionLevel != "H" || static.Dynamic {
		t.Errorf("static row %+v", static)
	}
	if !dynamic.Dynamic || dynamic.Destination != "https://b.example/x" || dynamic.Content != "" || dynamic.Name != "Menu" || dynamic.FileName != "qr-code-2" || dynamic.Style.ErrorCorrectionLevel != "M" {
		t.Errorf("dynamic row %+v", dynamic)
	}
	var fields map[string]string
	if err := json.Unmarshal([]byte(location.QRData), &fields); err != nil || fields["name"] != "Shop" || fields["address"] != "1 Main St" || location.Name != "Shop code" {
		t.Errorf("location row %+v (%v)", location, err)
	}
	if kit.Style.FgColor != "#123456" {
		t.Errorf("kit row drawn in %s", kit.Style.FgColor)
	}
}

// TestColumns: header names map to fields without case, and a header
// that names no content, an unknown column or one twice is refused.
func TestColumns(t *testing.T) {
	cols, problem := Columns([]string{"QRTYPE", "", "LocationName", "FGCOLOR"})
	if problem != "" || strings.Join(cols, ",") != "type,,locationName,fgColor" {
		t.Fatalf("Columns = %q, %q", cols, problem)
	}
	for header, want := range map[string]string{
		"name,fgColor":  "The header row must name a type or content column, such as url or text",
		"url,colour":    `Unknown column "colour" in the header row`,
		"url,URL":       `The column "url" appears twice in the header row`,
		"url,nameplate": `Unknown column "nameplate"`,
	} {
		if _, problem := Columns(strings.Split(header, ",")); !strings.HasPrefix(problem, want) {
			t.Errorf("%s: %q, want %q…", header, problem, want)
		}
	}
}

// TestCheckGS1Rows: GS1 Digital Link rows print the job's domain, and
// are refused by field in GS1's words.
func TestCheckGS1Rows(t *testing.T) {
	header := []string{"type", "gtin", "lot", "expiry"}
	cols, problem := Columns(header)
	if problem != "" {
		t.Fatal(problem)
	}
	table := &Table{Header: header, Rows: []Row{
		{Line: 2, Cells: []string{"gs1", "9506000134352", "ABC/1", "271231"}},
		{Line: 3, Cells: []string{"gs1", "9506000134353", "", ""}},
		{Line: 4, Cells: []string{"gs1", "9506000134352", "", "271340"}},
	}}
	c := Checker{
		Creator:   &codes.Creator{BaseURL: "https://sq.example", Now: time.Now},
		User:      &store.User{ID: 1},
		Domain:    &store.Domain{ID: 3, Domain: "go.example.com"},
		EntryName: func(raw string) string { return raw },
	}
	items := c.Rows(context.Background(), table, cols)
	if items[0].Status == store.ItemFailed || items[0].Code.Content != "https://go.example.com/01/09506000134352/10/ABC%2F1?17=271231" {
		t.Errorf("row 2: %+v", items[0])
	}
	if items[1].Status != store.ItemFailed || items[1].Column != "gtin" || items[1].Error != "AI (01): The numeric check digit is incorrect." {
		t.Errorf("row 3: %+v", items[1])
	}
	if items[2].Status != store.ItemFailed || items[2].Column != "expiry" || items[2].Error != "AI (17): The date contains an illegal month of the year." {
		t.Errorf("row 4: %+v", items[2])
	}
}
