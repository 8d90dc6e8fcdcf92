// Package bulk turns spreadsheets into saved codes: it reads a CSV or XLSX
// upload into a table (table.go) and runs the jobs the server records, one
// item per row, so any instance can carry a job on after a restart
// (runner.go). Which column holds which field of a code is here
// (columns.go); a row is checked as every code is, by internal/codes
// (check.go). The job's limits are the server's.
package bulk

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"
)

// MaxRows is the most data rows (the header not counted) a file may hold.
const MaxRows = 10000

// maxCell bounds one cell, in bytes: more than any QR code holds.
const maxCell = 8192

// Table is a spreadsheet's header and its data rows.
type Table struct {
	Header []string
	Rows   []Row
}

// Row is a data row and its row number as a spreadsheet shows the file
// (the header is row 1 when the file starts with it), so errors point
// where the user looks.
type Row struct {
	Line  int
	Cells []string
}

// Errors of ReadTable, for the client's message.
var (
	ErrEmpty    = errors.New("The file is empty")
	ErrTooMany  = fmt.Errorf("The file has more than %d rows", MaxRows)
	ErrNotTable = errors.New("The file must be a CSV (UTF-8, comma or semicolon separated) or an XLSX spreadsheet")
	ErrBadXLSX  = errors.New("The XLSX file could not be read")
)

// ReadTable reads an XLSX workbook's first sheet, or a CSV file: UTF-8 with
// or without a byte order mark, comma or semicolon separated (whichever the
// header line holds more of), cells quoted with "" holding newlines. Blank
// rows are skipped; more than MaxRows rows is ErrTooMany, found without
// reading the rest. Errors are the user's to fix and read as messages.
func ReadTable(data []byte) (*Table, error) {
	var rows []Row
	var err error
	switch {
	case len(bytes.TrimSpace(data)) == 0:
		return nil, ErrEmpty
	case bytes.HasPrefix(data, []byte("PK\x03\x04")):
		rows, err = readXLSX(data)
	default:
		rows, err = readCSV(data)
	}
	if err != nil {
		return nil, err
	}
	t := &Table{}
	for _, row := range rows {
		for i, c := range row.Cells {
			row.Cells[i] = strings.TrimSpace(c)
			if len(c) > maxCell {
				return nil, fmt.Errorf("Line %d has a cell longer than %d bytes", row.Line, maxCell)
			}
		}
		if t.Header == nil {
			t.Header = row.Cells
			continue
		}
		t.Rows = append(t.Rows, row)
	}
	if t.Header == nil {
		return nil, ErrEmpty
	}
	return t, nil
}

func blank(row []string) bool {
	for _, c := range row {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}

func readCSV(data []byte) ([]Row, error) {
	data = bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF"))
	// A binary file posing as CSV: text has no NULs and is valid UTF-8.
	if !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0 {
		return nil, ErrNotTable
	}
	r := csv.NewReader(bytes.NewReader(data))
	r.Comma = delimiter(data)
	r.FieldsPerRecord = -1 // short rows leave their last columns empty
	r.ReuseRecord = false
	var rows []Row
	inCells := 0 // newlines inside quoted cells so far
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return rows, nil
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, fmt.Errorf("The CSV file is malformed at line %d: %v", pe.Line, pe.Err)
			}
			return nil, ErrNotTable
		}
		// A spreadsheet shows a quoted cell's newlines inside its row, so
		// rows are numbered by line less the newlines of earlier cells.
		line, _ := r.FieldPos(0)
		row := line - inCells
		for _, c := range rec {
			inCells += strings.Count(c, "\n")
		}
		if blank(rec) {
			continue
		}
		if len(rec) > maxColumns {
			if !blank(rec[maxColumns:]) {
				return nil, ErrTooWide
			}
			rec = slices.Clone(rec[:maxColumns]) // the empty tail's headers go
		}
		if len(rows) > MaxRows { // the header and MaxRows rows
			return nil, ErrTooMany
		}
		rows = append(rows, Row{Line: row, Cells: rec})
	}
}

// delimiter picks ';' when the first line (outside quotes) holds more
// semicolons than commas, as spreadsheets in many locales write CSV.
func delimiter(data []byte) rune {
	commas, semis, quoted := 0, 0, false
	for _, b := range data {
		switch {
		case b == '"':
			quoted = !quoted
		case quoted:
		case b == '\n':
			if semis > commas {
				return ';'
			}
			return ','
		case b == ',':
			commas++
		case b == ';':
			semis++
		}
	}
	if semis > commas {
		return ';'
	}
	return ','
}
