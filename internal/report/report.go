// Package report lays out simple printable documents (A4 pages of text,
// lines and filled rectangles) and writes them as PDF through
// render.PDFWriter. Text in any script is set in Go Regular or Go Bold and
// the Noto fallbacks, embedded as subsets (internal/pdffont).
package report

import (
	"image/color"
	"slices"
	"strconv"

	"github.com/squarely/squarely/internal/pdffont"
	"github.com/squarely/squarely/internal/render"
)

// A4 in points, and the blank border kept on every side.
const (
	PageWidth  = 595
	PageHeight = 842
	Margin     = 50
)

// Doc is a document being laid out. Coordinates are in points from the
// page's top-left corner (y grows downwards); Doc turns them into PDF's.
// Y is a cursor callers move down as they add content.
type Doc struct {
	pages [][]byte // finished pages' content streams
	cur   []byte
	fonts pdffont.Fonts
	Y     float32
}

// New starts a document on its first page, cursor at the top margin.
func New() *Doc {
	d := &Doc{}
	d.NewPage()
	return d
}

// NewPage finishes the current page and moves the cursor to the top of a new one.
func (d *Doc) NewPage() {
	if d.cur != nil {
		d.pages = append(d.pages, d.cur)
	}
	d.cur = []byte{}
	d.Y = Margin
}

// Need starts a new page unless h more points fit above the bottom margin.
func (d *Doc) Need(h float32) {
	if d.Y+h > PageHeight-Margin && d.Y > Margin {
		d.NewPage()
	}
}

// Text writes s with its baseline y points from the top, in Go Regular
// (or Go Bold) of the given size, cut short with an ellipsis at the right
// margin.
func (d *Doc) Text(x, y, size float32, bold bool, s string) {
	d.TextFit(x, y, size, bold, s, PageWidth-Margin-x)
}

// TextFit is Text cut short at width points.
func (d *Doc) TextFit(x, y, size float32, bold bool, s string, width float32) {
	d.cur = append(d.cur, "0 g "...)
	d.cur = d.fonts.Show(d.cur, pdffont.Fit(s, bold, width/size), size, x, PageHeight-y)
}

// Rect fills a rectangle whose top-left corner is (x, y).
func (d *Doc) Rect(x, y, w, h float32, c color.RGBA) {
	d.cur = appendRGB(d.cur, c)
	d.cur = append(d.cur, " rg "...)
	d.cur = appendNums(d.cur, x, PageHeight-y-h, w, h)
	d.cur = append(d.cur, " re f\n"...)
}

// Line strokes a straight line of the given width.
func (d *Doc) Line(x0, y0, x1, y1, width float32, c color.RGBA) {
	d.cur = appendRGB(d.cur, c)
	d.cur = append(d.cur, " RG "...)
	d.cur = appendNums(d.cur, width)
	d.cur = append(d.cur, " w "...)
	d.cur = appendNums(d.cur, x0, PageHeight-y0)
	d.cur = append(d.cur, " m "...)
	d.cur = appendNums(d.cur, x1, PageHeight-y1)
	d.cur = append(d.cur, " l S\n"...)
}

// PDF returns the document as a PDF file, one page per NewPage.
func (d *Doc) PDF() []byte {
	pages := append(slices.Clip(d.pages), d.cur)
	pdf := &render.PDFWriter{}
	pdf.Header()
	catalog, tree := pdf.Alloc(), pdf.Alloc()
	res := "<< /Font <<" + d.fonts.Write(pdf) + " >> >>"
	kids := []byte{}
	for _, content := range pages {
		contents := pdf.Stream("", content)
		page := pdf.Object("<< /Type /Page /Parent " + strconv.Itoa(tree) + " 0 R /MediaBox [0 0 " +
			strconv.Itoa(PageWidth) + " " + strconv.Itoa(PageHeight) + "] /Resources " + res +
			" /Contents " + strconv.Itoa(contents) + " 0 R >>")
		kids = pdf.Ref(append(kids, ' '), page)
	}
	pdf.Define(tree, "<< /Type /Pages /Kids ["+string(kids)+" ] /Count "+strconv.Itoa(len(pages))+" >>")
	pdf.Define(catalog, "<< /Type /Catalog /Pages "+strconv.Itoa(tree)+" 0 R >>")
	pdf.Trailer(catalog)
	return pdf.Bytes()
}

func appendNums(b []byte, v ...float32) []byte {
	for i, x := range v {
		if i > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendFloat(b, float64(x), 'f', 2, 32)
	}
	return b
}

func appendRGB(b []byte, c color.RGBA) []byte {
	return appendNums(b, float32(c.R)/255, float32(c.G)/255, float32(c.B)/255)
}
