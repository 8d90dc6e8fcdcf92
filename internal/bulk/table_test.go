package bulk

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

func TestReadTableCSV(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		header   []string
		rows     [][]string
		lines    []int
	}{
		{"comma", "url,name\nhttps://a.example,A\n", []string{"url", "name"}, [][]string{{"https://a.example", "A"}}, []int{2}},
		{"byte order mark", "\xEF\xBB\xBFurl,name\r\nhttps://a.example,A\r\n", []string{"url", "name"}, [][]string{{"https://a.example", "A"}}, []int{2}},
		{"semicolon", "url;name\nhttps://a.example/?a=1,2;A\n", []string{"url", "name"}, [][]string{{"https://a.example/?a=1,2", "A"}}, []int{2}},
		{"quoted newline", "text,name\n\"line one\nline two\",B\nplain,C\n", []string{"text", "name"},
			[][]string{{"line one\nline two", "B"}, {"plain", "C"}}, []int{2, 3}},
		{"blank lines and short rows", "url,name\n\n , \nhttps://a.example\n", []string{"url", "name"}, [][]string{{"https://a.example"}}, []int{4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab, err := ReadTable([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(tab.Header, tc.header) || len(tab.Rows) != len(tc.rows) {
				t.Fatalf("got %q %v", tab.Header, tab.Rows)
			}
			for i, r := range tab.Rows {
				if !slices.Equal(r.Cells, tc.rows[i]) || r.Line != tc.lines[i] {
					t.Errorf("row %d: %q at line %d, want %q at line %d", i, r.Cells, r.Line, tc.rows[i], tc.lines[i])
				}
			}
		})
	}
}

func TestReadTableRefuses(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	tooMany := "url\n" + strings.Repeat("https://a.example\n", MaxRows+1)
	for _, tc := range []struct {
		name string
		in   []byte
		want error
	}{
		{"empty", nil, ErrEmpty},
		{"only blanks", []byte("\n \n"), ErrEmpty},
		{"binary as CSV", png, ErrNotTable},
		{"broken XLSX", append([]byte("PK\x03\x04"), bytes.Repeat([]byte{7}, 200)...), ErrBadXLSX},
		{"too many rows", []byte(tooMany), ErrTooMany},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := ReadTable(tc.in); !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
		})
	}
	if _, err := ReadTable([]byte("url\n" + strings.Repeat("https://a.example\n", MaxRows))); err != nil {
		t.Fatalf("exactly %d rows: %v", MaxRows, err)
	}
	if _, err := ReadTable([]byte("text\n\"open quote\n")); err == nil || !strings.Contains(err.Error(), "malformed") {
		t.Fatalf("unclosed quote: %v", err)
	}
}

// xlsxFile builds a workbook with rows on its first sheet.
func xlsxFile(t testing.TB, rows [][]any) []byte {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetSheetRow("Sheet1", cell, &r); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestReadTableXLSX(t *testing.T) {
	data := xlsxFile(t, [][]any{{"url", "name"}, {"https://a.example", "A"}, {}, {"https://b.example", 42}})
	tab, err := ReadTable(data)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(tab.Header, []string{"url", "name"}) || len(tab.Rows) != 2 ||
		!slices.Equal(tab.Rows[1].Cells, []string{"https://b.example", "42"}) || tab.Rows[1].Line != 4 {
		t.Fatalf("got %q %+v", tab.Header, tab.Rows)
	}
}
