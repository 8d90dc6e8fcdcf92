package bulk

import (
	"archive/zip"
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// workbook writes a minimal XLSX whose sheet and shared strings come from
// the given writers, streamed into the archive so that the test process
// itself never holds the inflated parts.
func workbook(t testing.TB, sheet, sharedStrings func(io.Writer)) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	part := func(name string, write func(io.Writer)) {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		bw := bufio.NewWriter(w)
		write(bw)
		if err := bw.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	text := func(s string) func(io.Writer) { return func(w io.Writer) { io.WriteString(w, s) } }
	part("[Content_Types].xml", text(`<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`))
	part("_rels/.rels", text(`<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`))
	part("xl/workbook.xml", text(`<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Codes" sheetId="1" r:id="rId7"/><sheet name="Other" sheetId="2" r:id="rId8"/></sheets></workbook>`))
	part("xl/_rels/workbook.xml.rels", text(`<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId8" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet2.xml"/><Relationship Id="rId7" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>`))
	part("xl/worksheets/sheet1.xml", sheet)
	part("xl/worksheets/sheet2.xml", text(`<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>not this sheet</t></is></c></row></sheetData></worksheet>`))
	if sharedStrings != nil {
		part("xl/sharedStrings.xml", sharedStrings)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

const sheetOpen = `<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`
const sheetClose = `</sheetData></worksheet>`

// sheetOf writes rows of cells as given (already XML).
func sheetOf(rows ...string) func(io.Writer) {
	return func(w io.Writer) {
		io.WriteString(w, sheetOpen+strings.Join(rows, "")+sheetClose)
	}
}

// sharedOf writes a shared-string table of the items, then filler items
// (already XML) until the part holds at least size bytes.
func sharedOf(items []string, filler string, size int) func(io.Writer) {
	return func(w io.Writer) {
		n, _ := io.WriteString(w, `<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">`)
		for _, it := range items {
			m, _ := io.WriteString(w, `<si><t>`+it+`</t></si>`)
			n += m
		}
		for n < size {
			m, _ := io.WriteString(w, filler)
			n += m
		}
		io.WriteString(w, `</sst>`)
	}
}

func TestReadXLSXCells(t *testing.T) {
	data := workbook(t, sheetOf(
		`<row r="1"><c r="A1" t="s"><v>0</v></c><c r="C1" t="s"><v>1</v></c><c r="D1" t="inlineStr"><is><t>dynamic</t></is></c></row>`,
		`<row r="3"><c r="A3" t="s"><v>2</v></c><c r="C3"><v>9.99</v></c><c r="D3" t="b"><v>1</v></c></row>`,
		`<row r="4"><c r="B4" t="s"><v>3</v></c></row>`,
		`<row r="5"><c r="A5" t="str"><f>CONCAT("https://","b.example")</f><v>https://b.example</v></c><c r="XFD5" t="s"><v>4</v></c></row>`,
	), sharedOf([]string{"url", "productPrice", `<r><t>https://a.</t></r><r><t>example</t></r><rPh><t>ignored</t></rPh>`, "  ", ""}, "", 0))
	tab, err := ReadTable(data)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(tab.Header, []string{"url", "", "productPrice", "dynamic"}) {
		t.Fatalf("header %q", tab.Header)
	}
	want := []Row{{3, []string{"https://a.example", "", "9.99", "TRUE"}}, {5, []string{"https://b.example"}}}
	if len(tab.Rows) != len(want) {
		t.Fatalf("rows %+v", tab.Rows)
	}
	for i, r := range tab.Rows {
		if r.Line != want[i].Line || !slices.Equal(r.Cells, want[i].Cells) {
			t.Errorf("row %d: %d %q, want %d %q", i, r.Line, r.Cells, want[i].Line, want[i].Cells)
		}
	}
}

func TestReadXLSXRefuses(t *testing.T) {
	tooWide := workbook(t, sheetOf(`<row r="1"><c r="A1" t="inlineStr"><is><t>url</t></is></c><c r="CW1" t="inlineStr"><is><t>far</t></is></c></row>`), nil)
	badIndex := workbook(t, sheetOf(`<row r="1"><c r="A1" t="s"><v>5</v></c></row>`), sharedOf([]string{"url"}, "", 0))
	brokenXML := workbook(t, sheetOf(`<row r="1"><c r="A1" t="inlineStr"><is><t>url</t></is></row>`), nil)
	for _, tc := range []struct {
		name string
		in   []byte
		want error
	}{
		{"a cell past the last column", tooWide, ErrTooWide},
		{"a shared string that is not there", badIndex, ErrBadXLSX},
		{"broken XML", brokenXML, ErrBadXLSX},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := ReadTable(tc.in); !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
		})
	}
	wide := "url" + strings.Repeat(",", maxColumns+5) + "\nhttps://a.example" + strings.Repeat(",", maxColumns) + "x\n"
	if _, err := ReadTable([]byte(wide)); !errors.Is(err, ErrTooWide) {
		t.Fatalf("a wide CSV: %v", err)
	}
}

// lyingEntry rewrites the archive so that the named part's directory
// entries declare size bytes whatever the part holds.
func lyingEntry(t *testing.T, data []byte, name string, size uint64) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for _, f := range zr.File {
		raw, err := f.OpenRaw()
		if err != nil {
			t.Fatal(err)
		}
		h := f.FileHeader
		if f.Name == name {
			h.UncompressedSize64 = size
		}
		w, err := zw.CreateRaw(&h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(w, raw); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// TestReadXLSXMemory parses hostile and largest-allowed workbooks in a
// process of their own and holds each to a peak resident size: the
// attack's workbook (shared strings inflating to 60 MB from a 150 KB
// upload) once took 1.4 GB and 5 s of CPU.
func TestReadXLSXMemory(t *testing.T) {
	header := `<row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="2"><c r="A2" t="s"><v>1</v></c></row>`
	bomb := workbook(t, sheetOf(header), sharedOf([]string{"url", "https://a.example"}, `<si><t>x</t></si>`, 60<<20))
	if len(bomb) > 200<<10 {
		t.Fatalf("the bomb is %d bytes", len(bomb))
	}
	// Just under the caps: the most a workbook can hold and still be read.
	const limit = maxXLSXPart - 16<<10
	tiny := workbook(t, sheetOf(header), sharedOf([]string{"url", "https://a.example"}, `<si><t>x</t></si>`, limit))
	long := workbook(t, sheetOf(header), sharedOf([]string{"url", "https://a.example"}, `<si><t>`+strings.Repeat("y", 8000)+`</t></si>`, limit))
	inline := workbook(t, func(w io.Writer) {
		n, _ := io.WriteString(w, sheetOpen+`<row r="1"><c r="A1" t="inlineStr"><is><t>text</t></is></c></row>`)
		for row := 2; n < limit-2000; row++ {
			m, _ := fmt.Fprintf(w, `<row r="%d"><c r="A%d" t="inlineStr"><is><t>%s</t></is></c></row>`, row, row, strings.Repeat("z", 2000))
			n += m
		}
		io.WriteString(w, sheetClose)
	}, nil)
	// The directory says 1 KB; the part holds 60 MB.
	lying := lyingEntry(t, bomb, "xl/sharedStrings.xml", 1<<10)

	for _, tc := range []struct {
		name    string
		in      []byte
		want    string // the error, or "" for a table
		peakMB  int
		cpuTime time.Duration
	}{
		{"60 MB of shared strings", bomb, ErrXLSXTooLarge.Error(), 40, time.Second},
		{"a directory that lies", lying, ErrBadXLSX.Error(), 40, time.Second},
		{"shared strings at the cap, 17 bytes each", tiny, ErrXLSXTooLarge.Error(), 100, 5 * time.Second},
		{"shared strings at the cap, 8,000 bytes each", long, "", 100, 5 * time.Second},
		{"inline strings at the cap", inline, "", 100, 5 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := t.TempDir() + "/book.xlsx"
			if err := os.WriteFile(file, tc.in, 0o600); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(os.Args[0], "-test.run=^TestReadXLSXHelper$")
			cmd.Env = append(os.Environ(), "BULK_XLSX_FILE="+file)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("helper: %v\n%s", err, out)
			}
			var result string
			var peakKB int
			for _, line := range strings.Split(string(out), "\n") {
				if v, ok := strings.CutPrefix(line, "result: "); ok {
					result = v
				}
				if v, ok := strings.CutPrefix(line, "peak kB: "); ok {
					peakKB, _ = strconv.Atoi(v)
				}
			}
			cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
			t.Logf("%d KB upload: %q, peak %d MB, CPU %v", len(tc.in)>>10, result, peakKB>>10, cpu)
			if result != tc.want {
				t.Errorf("result %q, want %q", result, tc.want)
			}
			if peakKB == 0 || peakKB > tc.peakMB<<10 {
				t.Errorf("peak resident size %d kB, want at most %d MB", peakKB, tc.peakMB)
			}
			if cpu > tc.cpuTime {
				t.Errorf("CPU %v, want at most %v", cpu, tc.cpuTime)
			}
		})
	}
}

// TestReadXLSXHelper is the process TestReadXLSXMemory measures: it reads
// one file and prints the result and its own peak resident size (VmHWM,
// which counts this process's memory only, unlike the rusage of a child,
// which includes its parent's before exec).
func TestReadXLSXHelper(t *testing.T) {
	file := os.Getenv("BULK_XLSX_FILE")
	if file == "" {
		return // only as TestReadXLSXMemory's child
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	result := ""
	if _, err := ReadTable(data); err != nil {
		result = err.Error()
	}
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			fmt.Printf("result: %s\npeak kB: %s\n", result, strings.TrimSuffix(strings.TrimSpace(v), " kB"))
		}
	}
}
