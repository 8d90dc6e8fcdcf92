package bulk

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
)

// An XLSX upload is read by this streaming reader rather than a workbook
// library: the library parsed shared strings into structures twenty times
// their XML's size (a 141 KB upload whose sharedStrings.xml inflates to
// 60 MB took 1.4 GB), where here a shared string costs its bytes and a
// string header. Every part of the archive is capped twice: by the size its
// directory entry declares, before anything is inflated, and while it is
// inflated, since a crafted entry can declare less than it holds. Parts the
// reader does not need (styles, themes, …) are never inflated at all.
const (
	// maxXLSXPart bounds one part once inflated: a sheet of MaxRows rows
	// of ten cells, or their shared strings, stays well below it.
	maxXLSXPart = 16 << 20
	// maxXLSXTotal bounds the whole archive once inflated.
	maxXLSXTotal = 48 << 20
	// maxSharedStrings bounds the shared-string table's entries (each
	// costs a string header even when empty): MaxRows rows of 50 distinct
	// cells.
	maxSharedStrings = 500_000
	// maxColumns bounds a row's width: a cell far to the right would make
	// every row that wide.
	maxColumns = 100
)

// Errors of the XLSX reader, for the client's message.
var (
	ErrXLSXTooLarge = fmt.Errorf("The XLSX file is too large once unpacked: each part may be at most %d MB and the whole file %d MB", maxXLSXPart>>20, maxXLSXTotal>>20)
	ErrTooWide      = fmt.Errorf("The file has more than %d columns", maxColumns)
)

const relOfficeDocument = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"

// workbookParts are the archive's parts the reader needs.
type workbookParts struct {
	files   map[string]*zip.File
	inflate int64 // bytes inflated so far, against maxXLSXTotal
}

func readXLSX(data []byte) ([]Row, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, ErrBadXLSX
	}
	p := &workbookParts{files: map[string]*zip.File{}}
	var declared uint64
	for _, f := range zr.File {
		if f.UncompressedSize64 > maxXLSXPart {
			return nil, ErrXLSXTooLarge
		}
		if declared += f.UncompressedSize64; declared > maxXLSXTotal {
			return nil, ErrXLSXTooLarge
		}
		p.files[strings.TrimPrefix(f.Name, "/")] = f
	}
	sheet, sharedStrings, err := p.firstSheet()
	if err != nil {
		return nil, err
	}
	var shared []string
	if sharedStrings != "" {
		if shared, err = p.sharedStrings(sharedStrings); err != nil {
			return nil, err
		}
	}
	return p.sheetRows(sheet, shared)
}

// open inflates the part name through the caps; a part that is not there
// is ErrBadXLSX.
func (p *workbookParts) open(name string) (*capped, error) {
	f, ok := p.files[name]
	if !ok {
		return nil, ErrBadXLSX
	}
	rc, err := f.Open()
	if err != nil {
		return nil, ErrBadXLSX
	}
	return &capped{rc: rc, parts: p, left: maxXLSXPart}, nil
}

// capped reads a part and fails with ErrXLSXTooLarge past either cap,
// whatever the directory said.
type capped struct {
	rc    io.ReadCloser
	parts *workbookParts
	left  int64
	err   error
}

func (c *capped) Read(b []byte) (int, error) {
	n, err := c.rc.Read(b)
	c.left -= int64(n)
	c.parts.inflate += int64(n)
	if c.left < 0 || c.parts.inflate > maxXLSXTotal {
		c.err = ErrXLSXTooLarge
		return 0, c.err
	}
	return n, err
}

func (c *capped) Close() error { return c.rc.Close() }

// decode runs each of a part's XML tokens through fn. A cap hit is
// ErrXLSXTooLarge, whatever XML error it caused; other XML errors are
// ErrBadXLSX; fn's errors are its own.
func (p *workbookParts) decode(name string, fn func(t xml.Token) error) error {
	c, err := p.open(name)
	if err != nil {
		return err
	}
	defer c.Close()
	d := xml.NewDecoder(c)
	for {
		t, err := d.Token()
		switch {
		case c.err != nil:
			return c.err
		case err == io.EOF:
			return nil
		case err != nil:
			return ErrBadXLSX
		}
		if err := fn(t); err != nil {
			return err
		}
	}
}

// firstSheet finds the workbook's first sheet and its shared strings
// through the workbook's relationships.
func (p *workbookParts) firstSheet() (sheet, sharedStrings string, err error) {
	workbook := "xl/workbook.xml"
	if err := p.decode("_rels/.rels", func(t xml.Token) error {
		if s, ok := t.(xml.StartElement); ok && s.Name.Local == "Relationship" && strings.HasSuffix(attr(s, "Type"), "/officeDocument") {
			workbook = strings.TrimPrefix(attr(s, "Target"), "/")
		}
		return nil
	}); err != nil && !errors.Is(err, ErrBadXLSX) {
		return "", "", err
	}
	var sheetID string
	if err := p.decode(workbook, func(t xml.Token) error {
		if s, ok := t.(xml.StartElement); ok && s.Name.Local == "sheet" && sheetID == "" {
			for _, a := range s.Attr {
				if a.Name.Local == "id" && a.Name.Space == relOfficeDocument {
					sheetID = a.Value
				}
			}
		}
		return nil
	}); err != nil {
		return "", "", err
	}
	if sheetID == "" {
		return "", "", ErrEmpty
	}
	dir, file := path.Split(workbook)
	rels := dir + "_rels/" + file + ".rels"
	if err := p.decode(rels, func(t xml.Token) error {
		s, ok := t.(xml.StartElement)
		if !ok || s.Name.Local != "Relationship" {
			return nil
		}
		target := attr(s, "Target")
		if strings.HasPrefix(target, "/") {
			target = strings.TrimPrefix(target, "/")
		} else {
			target = path.Join(dir, target)
		}
		switch {
		case attr(s, "Id") == sheetID:
			sheet = target
		case strings.HasSuffix(attr(s, "Type"), "/sharedStrings") && p.files[target] != nil:
			sharedStrings = target
		}
		return nil
	}); err != nil {
		return "", "", err
	}
	if sheet == "" {
		return "", "", ErrBadXLSX
	}
	return sheet, sharedStrings, nil
}

// sharedStrings reads the shared-string table: each item's text, its
// runs joined, phonetic guides left out.
func (p *workbookParts) sharedStrings(name string) ([]string, error) {
	var (
		shared   []string
		text     strings.Builder
		inItem   bool
		phonetic int
		inText   bool
	)
	err := p.decode(name, func(t xml.Token) error {
		switch t := t.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "si":
				if len(shared) >= maxSharedStrings {
					return ErrXLSXTooLarge
				}
				inItem = true
				text.Reset()
			case "rPh":
				phonetic++
			case "t":
				inText = inItem && phonetic == 0
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "si":
				shared = append(shared, text.String())
				inItem = false
			case "rPh":
				phonetic--
			case "t":
				inText = false
			}
		case xml.CharData:
			if inText {
				text.Write(t)
			}
		}
		return nil
	})
	return shared, err
}

// sheetRows reads a sheet's rows, each cell placed in its column by its
// reference; blank rows are left out, and row numbers are the sheet's.
func (p *workbookParts) sheetRows(name string, shared []string) ([]Row, error) {
	var (
		rows    []Row
		cells   []string
		line    int
		col     int
		kind    string
		value   strings.Builder
		inValue bool
		inText  bool
	)
	err := p.decode(name, func(t xml.Token) error {
		switch t := t.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "row":
				line++
				if n, err := strconv.Atoi(attr(t, "r")); err == nil && n > 0 {
					line = n
				}
				cells, col = nil, 0
			case "c":
				col++
				if c := columnOf(attr(t, "r")); c > 0 {
					col = c
				}
				kind = attr(t, "t")
				value.Reset()
			case "v":
				inValue = true
			case "t":
				inText = kind == "inlineStr"
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "v":
				inValue = false
			case "t":
				inText = false
			case "c":
				v, err := cellValue(kind, value.String(), shared)
				if err != nil {
					return err
				}
				if v == "" {
					return nil
				}
				if col > maxColumns {
					return ErrTooWide
				}
				for len(cells) < col {
					cells = append(cells, "")
				}
				cells[col-1] = v
			case "row":
				if blank(cells) {
					return nil
				}
				if len(rows) > MaxRows { // the header and MaxRows rows
					return ErrTooMany
				}
				rows = append(rows, Row{Line: line, Cells: cells})
			}
		case xml.CharData:
			if inValue || inText {
				value.Write(t)
			}
		}
		return nil
	})
	return rows, err
}

// cellValue is what a cell shows, from its type and the text of its <v>
// (or its inline string).
func cellValue(kind, v string, shared []string) (string, error) {
	switch kind {
	case "s":
		i, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || i < 0 || i >= len(shared) {
			return "", ErrBadXLSX
		}
		return shared[i], nil
	case "b":
		if strings.TrimSpace(v) == "1" {
			return "TRUE", nil
		}
		return "FALSE", nil
	}
	return v, nil
}

// columnOf is the 1-based column of a cell reference such as "AB12", or 0.
func columnOf(ref string) int {
	col := 0
	for _, r := range ref {
		if r < 'A' || r > 'Z' {
			break
		}
		if col = col*26 + int(r-'A'+1); col > 1<<20 {
			return 1 << 20
		}
	}
	return col
}

func attr(s xml.StartElement, name string) string {
	for _, a := range s.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}
