package report_test

import (
	"fmt"
	"image/color"
	"strings"
	"testing"

	"github.com/squarely/squarely/internal/report"
	"github.com/squarely/squarely/internal/testenv"
)

func TestDocOpensWithTextOnEveryPage(t *testing.T) {
	d := report.New()
	d.Text(report.Margin, d.Y, 18, true, "Scan report (café) – € 東")
	d.Rect(report.Margin, d.Y+10, 100, 20, color.RGBA{R: 200, A: 255})
	d.Line(report.Margin, d.Y+40, 200, d.Y+40, 0.5, color.RGBA{A: 255})
	d.Y += 60
	for i := range 80 { // more rows than one page holds
		d.Need(14)
		d.Text(report.Margin, d.Y, 10, false, fmt.Sprintf("row %d", i))
		d.Y += 14
	}
	text := testenv.PDFText(t, d.PDF())
	pages := strings.Split(strings.TrimRight(text, "\f"), "\f")
	if len(pages) != 2 {
		t.Fatalf("%d pages, want 2:\n%s", len(pages), text)
	}
	if !strings.Contains(pages[0], "Scan report (café) – € ?") {
		t.Errorf("title not encoded as WinAnsi:\n%s", pages[0])
	}
	if !strings.Contains(pages[0], "row 0") || !strings.Contains(pages[1], "row 79") || strings.Contains(pages[0], "row 79") {
		t.Errorf("rows not flowed onto the second page:\n%s", text)
	}
}
