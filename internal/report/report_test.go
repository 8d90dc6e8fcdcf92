package report_test

import (
	"fmt"
	"image/color"
	"os/exec"
	"regexp"
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
	if !strings.Contains(pages[0], "Scan report (café) – € 東") {
		t.Errorf("title not extracted as written:\n%s", pages[0])
	}
	if !strings.Contains(pages[0], "row 0") || !strings.Contains(pages[1], "row 79") || strings.Contains(pages[0], "row 79") {
		t.Errorf("rows not flowed onto the second page:\n%s", text)
	}
}

// TestTitlesInAnyScript: a report's title and rows in each script print
// in an embedded subset font and are extracted as written.
func TestTitlesInAnyScript(t *testing.T) {
	pdffonts := testenv.Command(t, "pdffonts")
	titles := []struct{ text, font string }{
		{"Scan report: Сканируй меня", "GoBold"},
		{"امسح الرمز", "NotoSansArabic-Bold"},
		{"扫描二维码", "NotoSansCJKsc-Bold"},
		{"QRコードを読み取る", "NotoSansCJKsc-Bold"},
		{"코드를 스캔하세요", "NotoSansCJKsc-Bold"},
		{"סרוק אותי", "NotoSansHebrew-Bold"},
	}
	d := report.New()
	for _, c := range titles {
		d.Y += 30
		d.Text(report.Margin, d.Y, 20, true, c.text)
		d.Y += 20
		d.Text(report.Margin, d.Y, 10, false, "Regular: "+c.text)
	}
	pdf := d.PDF()
	text := testenv.PDFText(t, pdf)
	cmd := exec.Command(pdffonts, "-")
	cmd.Stdin = strings.NewReader(string(pdf))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("pdffonts: %v %s", err, out)
	}
	for _, c := range titles {
		if !strings.Contains(text, c.text) || !strings.Contains(text, "Regular: "+c.text) {
			t.Errorf("%q not extracted:\n%s", c.text, text)
		}
		if !regexp.MustCompile(`(?m)^[A-Z]{6}\+` + c.font + ` +CID TrueType +Identity-H +yes +yes +yes`).Match(out) {
			t.Errorf("no embedded subset of %s with a ToUnicode map:\n%s", c.font, out)
		}
	}
	if !regexp.MustCompile(`(?m)^[A-Z]{6}\+GoRegular `).Match(out) {
		t.Errorf("regular text not in Go Regular:\n%s", out)
	}
}

// A title longer than the page is cut with an ellipsis at the margin.
func TestLongTitleStaysOnThePage(t *testing.T) {
	d := report.New()
	d.Text(report.Margin, d.Y+20, 20, true, strings.Repeat("扫描二维码", 40))
	text := testenv.PDFText(t, d.PDF())
	// A4 less its margins holds 24 ideographs at 20 points.
	if !strings.Contains(text, strings.Repeat("扫描二维码", 4)+"扫描二…") {
		t.Errorf("title not cut at the margin:\n%s", text)
	}
}
