package server

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"image/png"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

func bulkItemBody(qrType, item string) string {
	key := map[string]string{"url": "url", "text": "data"}[qrType]
	b, _ := json.Marshal(map[string]any{"qrType": qrType, "qrData": map[string]string{key: item}, "fgColor": "#000000", "bgColor": "#FFFFFF", "data": item})
	return string(b)
}

func TestBulkGenerateQRCode(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		dec := newDecoders(t)
		expect(t, e.do(e.browser(), "POST", "/api/bulk-generate-qrcode", bulkItemBody("url", "https://example.com")), http.StatusUnauthorized, "")
		c, _ := e.signedIn("bulk@example.com")

		for _, tc := range []struct{ qrType, item string }{{"url", "https://example.com/menu?t=1"}, {"text", "Table 7 – ünïcödé"}} {
			m := expect(t, e.do(c, "POST", "/api/bulk-generate-qrcode", bulkItemBody(tc.qrType, tc.item)), http.StatusOK, "")
			if got := dec.read([]byte(m["qrCode"].(string)), "svg"); got != tc.item {
				t.Errorf("%s item decodes to %q, want %q", tc.qrType, got, tc.item)
			}
		}
		for _, tc := range []struct{ body, message string }{
			{bulkItemBody("url", "example.com"), "Please enter a valid URL"},
			{bulkItemBody("url", "javascript:alert(1)"), "Please enter a valid URL"},
			{bulkItemBody("text", "   "), "Text is required"},
			{bulkItemBody("text", strings.Repeat("x", maxBulkText+1)), "Text must be at most 4096 bytes of UTF-8"},
			{bulkItemBody("wifi", "x"), "qrType must be url or text"},
			{`{"qrType":"url","qrData":{"url":"https://a.example"},"fgColor":"#FFFFFF","bgColor":"#FFFFFF"}`, ""},
			{`{"qrType":"url","qrData":{"url":5}}`, ""},
			{`{"qrType":"url"`, "Malformed JSON body"},
			{`{"qrType":"text","data":"a\u0000b"}`, msgNUL},
		} {
			r := e.do(c, "POST", "/api/bulk-generate-qrcode", tc.body)
			if r.StatusCode != http.StatusBadRequest {
				t.Fatalf("%s: status %d, want 400; %s", tc.body, r.StatusCode, r.body)
			}
			if m := r.json(t); m["message"] == "" || (tc.message != "" && m["message"] != tc.message) {
				t.Errorf("%s: message %q, want %q", tc.body, m["message"], tc.message)
			}
		}
	})
}

// xlsxOf builds a workbook whose first sheet holds rows.
func xlsxOf(t *testing.T, rows [][]any) string {
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
	return buf.String()
}

// postSheet uploads a spreadsheet, with dryRun and header pairs as given.
func (e *env) postSheet(c *http.Client, name, content string, dryRun bool, header ...string) *response {
	e.t.Helper()
	fields := map[string]string{}
	if dryRun {
		fields["dryRun"] = "true"
	}
	return e.postSheetWith(c, name, content, fields, header...)
}

// postSheetWith uploads a spreadsheet with the form fields and header
// pairs given.
func (e *env) postSheetWith(c *http.Client, name, content string, fields map[string]string, header ...string) *response {
	e.t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, v := range fields {
		mw.WriteField(k, v)
	}
	fw, _ := mw.CreateFormFile("file", name)
	fw.Write([]byte(content))
	mw.Close()
	return e.do(c, "POST", "/api/bulk-jobs", buf.String(), append([]string{"Content-Type", mw.FormDataContentType()}, header...)...)
}

// waitJob polls a job until it is done or failed.
func (e *env) waitJob(c *http.Client, id string) map[string]any {
	e.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		m := expect(e.t, e.do(c, "GET", "/api/bulk-jobs/"+id, ""), http.StatusOK, "")
		if m["status"] == store.BulkDone || m["status"] == store.BulkFailed {
			return m
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("job %s stuck: %v", id, m)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// zipFiles reads a ZIP body into name → content, in archive order.
func zipFiles(t *testing.T, body []byte) ([]string, map[string][]byte) {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		t.Fatalf("not a ZIP: %v", err)
	}
	var names []string
	files := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, f.Name)
		files[f.Name] = b
	}
	return names, files
}

func readCSV(t *testing.T, b []byte) [][]string {
	t.Helper()
	rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestBulkJobToZIP(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		dec := newDecoders(t)
		c, _ := e.signedIn("bulk@example.com")
		base := testConfig(t).BaseURL
		// BOM, semicolons, a quoted newline, a duplicate file name, a
		// formula-looking name, a style, a dynamic row and a bad row.
		sheet := "\xEF\xBB\xBFtype;url;text;name;fileName;fgColor;dynamic\r\n" +
			"url;https://example.com/a;;Menu A;menu;;\r\n" +
			"text;;\"Line one\nLine two\";=SUM(A1);menu;#1A2B3C;\r\n" +
			"url;example.com;;Broken;;;\r\n" +
			";https://example.com/d;;Door;;;true\r\n" +
			";;Plain;;;;\r\n"

		dry := expect(t, e.postSheet(c, "codes.csv", sheet, true), http.StatusOK, "")
		if dry["total"] != 5.0 || dry["valid"] != 4.0 {
			t.Fatalf("dry run: %v", dry)
		}
		errs := dry["errors"].([]any)
		if len(errs) != 1 || fmt.Sprint(errs[0]) != "map[column:url message:Please enter a valid URL row:4]" {
			t.Fatalf("dry run errors: %v", errs)
		}
		if n := storetest.Count(t, st, "bulk_jobs") + storetest.Count(t, st, "qr_codes"); n != 0 {
			t.Fatalf("a dry run wrote %d rows", n)
		}

		job := expect(t, e.postSheet(c, "codes.csv", sheet, false, "Idempotency-Key", "k-1"), http.StatusAccepted, "")
		id := idOf(job)
		done := e.waitJob(c, id)
		if done["status"] != store.BulkDone || done["processed"] != 5.0 || done["failed"] != 1.0 {
			t.Fatalf("job: %v", done)
		}
		// The finished job names each failed row and why.
		if errs, _ := done["errors"].([]any); len(errs) != 1 || fmt.Sprint(errs[0]) != "map[column:url message:Please enter a valid URL row:4]" {
			t.Errorf("the job's errors: %v", done["errors"])
		}
		if storetest.Count(t, st, "qr_codes") != 3 || storetest.Count(t, st, "dynamic_qr_codes") != 1 {
			t.Fatalf("saved %d static and %d dynamic codes, want 3 and 1", storetest.Count(t, st, "qr_codes"), storetest.Count(t, st, "dynamic_qr_codes"))
		}
		// The same upload again with the same key is the same job.
		again := expect(t, e.postSheet(c, "codes.csv", sheet, false, "Idempotency-Key", "k-1"), http.StatusOK, "")
		if idOf(again) != id || storetest.Count(t, st, "bulk_jobs") != 1 || storetest.Count(t, st, "qr_codes") != 3 {
			t.Fatalf("a repeat made another job or codes: %v", again)
		}
		expect(t, e.postSheet(c, "codes.csv", sheet+"url;https://example.com/z;;;;;\r\n", false, "Idempotency-Key", "k-1"),
			http.StatusConflict, "This Idempotency-Key was used for another file")

		want := map[string]string{
			"menu": "https://example.com/a", "menu-2": "Line one\nLine two", "qr-code-5": "Plain",
		}
		for _, format := range []string{"svg", "png", "pdf"} {
			r := e.do(c, "GET", "/api/bulk-jobs/"+id+"/download?format="+format, "")
			if r.StatusCode != http.StatusOK || r.Header.Get("Content-Type") != "application/zip" {
				t.Fatalf("%s download: %d %s", format, r.StatusCode, r.body)
			}
			names, files := zipFiles(t, r.body)
			zr, _ := zip.NewReader(bytes.NewReader(r.body), int64(len(r.body)))
			for _, f := range zr.File {
				if !f.Modified.Equal(e.clock.Now().Truncate(time.Second)) {
					t.Errorf("%s dated %v, want the job's time %v", f.Name, f.Modified, e.clock.Now())
				}
			}
			wantNames := []string{"menu." + format, "menu-2." + format, "qr-code-4." + format, "qr-code-5." + format, "manifest.csv", "errors.csv"}
			if strings.Join(names, ",") != strings.Join(wantNames, ",") {
				t.Fatalf("%s entries %v, want %v", format, names, wantNames)
			}
			manifest := readCSV(t, files["manifest.csv"])
			if len(manifest) != 5 || strings.Join(manifest[0], ",") != "row,name,data,short code,file" {
				t.Fatalf("manifest %q", manifest)
			}
			if manifest[2][1] != "'=SUM(A1)" {
				t.Errorf("a formula name is written as %q", manifest[2][1])
			}
			short := manifest[3][3]
			if manifest[3][2] != base+"/d/"+short || len(short) != 8 {
				t.Errorf("dynamic row in the manifest: %q", manifest[3])
			}
			if got := readCSV(t, files["errors.csv"]); len(got) != 2 || strings.Join(got[1], "|") != "4|url|Please enter a valid URL" {
				t.Errorf("errors.csv %q", got)
			}
			if format == "pdf" {
				continue // decoding every format of every entry is slow; one pass proves the PDF entry
			}
			for stem, text := range want {
				if got := dec.read(files[stem+"."+format], format); got != text {
					t.Errorf("%s %s decodes to %q, want %q", format, stem, got, text)
				}
			}
			if got := dec.read(files["qr-code-4."+format], format); got != base+"/d/"+short {
				t.Errorf("the dynamic entry decodes to %q", got)
			}
		}
		// Print output (issue 26): every entry at the print size, in CMYK;
		// bad print options are refused before the archive starts.
		r := e.do(c, "GET", "/api/bulk-jobs/"+id+"/download?format=eps&sizeMm=30&colorSpace=cmyk", "")
		names, files := zipFiles(t, r.body)
		if r.StatusCode != http.StatusOK || len(names) != 6 || names[0] != "menu.eps" {
			t.Fatalf("EPS ZIP: %d %v", r.StatusCode, names)
		}
		if eps := files["menu.eps"]; !bytes.Contains(eps, []byte("%%BoundingBox: 0 0 86 86")) || !bytes.Contains(eps, []byte("0 0 0 1 k")) {
			t.Errorf("menu.eps: %.300s", eps)
		}
		r = e.do(c, "GET", "/api/bulk-jobs/"+id+"/download?format=png&sizeMm=25.4&dpi=600", "")
		_, files = zipFiles(t, r.body)
		if img, err := png.Decode(bytes.NewReader(files["menu.png"])); err != nil || img.Bounds().Dx() != 600 {
			t.Errorf("menu.png of an inch at 600 dpi: %v", err)
		}
		expect(t, e.do(c, "GET", "/api/bulk-jobs/"+id+"/download?format=svg&sizeMm=30", ""), http.StatusBadRequest, "sizeMm applies to PNG, PDF and EPS files")
		expect(t, e.do(c, "GET", "/api/bulk-jobs/"+id+"/download?format=png&dpi=300", ""), http.StatusBadRequest, "dpi applies to PNG files with a sizeMm")

		// Spreadsheet input: an XLSX with the header row.
		x := xlsxOf(t, [][]any{{"url", "name"}, {"https://example.com/x1", "X1"}, {"https://example.com/x2", "X2"}})
		xj := expect(t, e.postSheet(c, "codes.xlsx", x, false), http.StatusAccepted, "")
		if m := e.waitJob(c, idOf(xj)); m["processed"] != 2.0 || m["failed"] != 0.0 {
			t.Fatalf("xlsx job: %v", m)
		}
		r = e.do(c, "GET", "/api/bulk-jobs/"+idOf(xj)+"/download?format=png", "")
		_, files = zipFiles(t, r.body)
		if got := dec.read(files["qr-code-2.png"], "png"); got != "https://example.com/x2" {
			t.Errorf("xlsx row 2 decodes to %q", got)
		}
	})
}

func TestBulkJobRefusesBadInput(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st, withConfig(func(c *config.Config) { c.DynamicLimit = 2 }))
		c, _ := e.signedIn("bulk@example.com")
		expect(t, e.postSheet(e.browser(), "a.csv", "url\nhttps://a.example\n", false), http.StatusUnauthorized, "")

		png := string(pngBytes(t, 8, 8))
		for _, tc := range []struct {
			name, file, content, message string
			status                       int
		}{
			{"empty file", "a.csv", "", "Please choose a CSV or XLSX file with a header row", 400},
			{"only blank lines", "a.csv", "\n\n", "The file is empty", 400},
			{"no header", "a.csv", "https://a.example\nhttps://b.example\n", "", 400},
			{"wrong delimiter", "a.csv", "url\tname\nhttps://a.example\tA\n", "", 400},
			{"header without content", "a.csv", "name,fgColor\nA,#000000\n", "The header row must name a type or content column, such as url or text", 400},
			{"duplicate column", "a.csv", "url,URL\nhttps://a.example,https://b.example\n", `The column "url" appears twice in the header row`, 400},
			{"broken XLSX", "a.xlsx", "PK\x03\x04" + strings.Repeat("junk", 50), "The XLSX file could not be read", 400},
			{"image posing as CSV", "a.csv", png, "The file must be a CSV (UTF-8, comma or semicolon separated) or an XLSX spreadsheet", 400},
			{"too many rows", "a.csv", "url\n" + strings.Repeat("https://a.example\n", 10001), "The file has more than 10000 rows", 400},
			{"over 10 MB", "a.csv", "text\n" + strings.Repeat("x", maxBulkFile), msgBulkTooBig, 413},
			{"no valid row", "a.csv", "url\nexample.com\n", "No row of the file can be made into a QR code", 400},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := e.postSheet(c, tc.file, tc.content, false)
				m := expect(t, r, tc.status, tc.message)
				if m["message"] == "" {
					t.Fatalf("no message: %s", r.body)
				}
			})
		}
		if n := storetest.Count(t, st, "bulk_jobs"); n != 0 {
			t.Fatalf("refused uploads made %d jobs", n)
		}

		// Dry run: errors pinned to row and column, the dynamic limit (2)
		// counted in row order.
		sheet := "url,text,dynamic,fgColor,name,gradientColor,gradientType,gradientAngle,dotShape\n" +
			"https://a.example,,true,,,,,,\n" +
			"https://b.example,,true,,,,,,\n" +
			"https://c.example,,true,,,,,,\n" +
			",hello,maybe,,,,,,\n" +
			"https://e.example,,,#FFFFFF,,,,,\n" +
			"ftp://f.example,,,,,,,,\n" +
			"https://g.example,,,," + strings.Repeat("n", 101) + ",,,,\n" +
			"https://h.example,,,,,#C2185B,radial,90,classy\n" +
			"https://i.example,,,,,#C2185B,,360,\n" +
			"https://j.example,,,,,#C2185B,conic,,\n" +
			"https://k.example,,,,,,,,heart\n"
		m := expect(t, e.postSheet(c, "a.csv", sheet, true), http.StatusOK, "")
		got := []string{}
		for _, x := range m["errors"].([]any) {
			r := x.(map[string]any)
			got = append(got, fmt.Sprintf("%v %v", r["row"], r["column"]))
		}
		if want := "4 dynamic,5 dynamic,6 fgColor,7 url,8 name,10 gradientAngle,11 gradientType,12 dotShape"; strings.Join(got, ",") != want {
			t.Fatalf("errors at %v, want %s (%v)", got, want, m["errors"])
		}
		first := m["errors"].([]any)[0].(map[string]any)
		if first["message"] != "You have reached your limit of 2 dynamic QR codes. Please upgrade to create more."+msgFreeShared {
			t.Errorf("limit message %q", first["message"])
		}

		// Another user's job, and ids that are not one.
		job := expect(t, e.postSheet(c, "a.csv", "url\nhttps://a.example\n", false), http.StatusAccepted, "")
		e.waitJob(c, idOf(job))
		other, _ := e.signedIn("other@example.com")
		for _, path := range []string{"/api/bulk-jobs/" + idOf(job), "/api/bulk-jobs/" + idOf(job) + "/download", "/api/bulk-jobs/x", "/api/bulk-jobs/-1"} {
			expect(t, e.do(other, "GET", path, ""), http.StatusNotFound, msgJobMissing)
		}
		expect(t, e.do(c, "GET", "/api/bulk-jobs/"+idOf(job)+"/download?format=gif", ""), http.StatusBadRequest, "format must be png, svg, pdf or eps")
		expect(t, e.postSheet(c, "a.csv", "url\nhttps://a.example\n", false, "Idempotency-Key", strings.Repeat("k", 101)),
			http.StatusBadRequest, "Idempotency-Key must be at most 100 printable ASCII characters")
		expect(t, e.do(c, "POST", "/api/bulk-jobs", `{"file":"x"}`), http.StatusUnsupportedMediaType, "")
	})
}

// A burst of the same upload with one Idempotency-Key makes one job.
func TestBulkJobIdempotentUnderBurst(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c, _ := e.signedIn("bulk@example.com")
		sheet := "url\nhttps://a.example\nhttps://b.example\n"
		var wg sync.WaitGroup
		statuses := make([]int, 6)
		for i := range statuses {
			wg.Go(func() { statuses[i] = e.postSheet(c, "a.csv", sheet, false, "Idempotency-Key", "burst").StatusCode })
		}
		wg.Wait()
		for _, s := range statuses {
			if s != http.StatusAccepted && s != http.StatusOK && s != http.StatusTooManyRequests {
				t.Fatalf("statuses %v", statuses)
			}
		}
		if n := storetest.Count(t, st, "bulk_jobs"); n != 1 {
			t.Fatalf("%d jobs from one key", n)
		}
	})
}

// TestBulkSlotsPerAccount: one account holds at most one of the
// instance's bulk slots, so its checks cannot keep other accounts out.
func TestBulkSlotsPerAccount(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		hog, _ := e.signedIn("hog@example.com")
		other, _ := e.signedIn("other@example.com")
		sheet := "url\nhttps://example.com/a\n"
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		mw.WriteField("dryRun", "true")
		fw, _ := mw.CreateFormFile("file", "slow.csv")
		fw.Write([]byte(sheet))
		mw.Close()

		// The hog sends two checks whose bodies stop half way, written by
		// hand on connections of their own so that the headers go out at
		// once: each would hold a slot for as long as its body trickles.
		u, _ := url.Parse(e.srv.URL)
		var cookies []string
		for _, c := range hog.Jar.Cookies(u) {
			cookies = append(cookies, c.String())
		}
		type answer struct {
			status int
			body   string
		}
		var conns []net.Conn
		answers := make(chan answer, 2)
		for range 2 {
			conn, err := net.Dial("tcp", u.Host)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { conn.Close() }) // a failed test must not leave the requests hanging
			conns = append(conns, conn)
			fmt.Fprintf(conn, "POST /api/bulk-jobs HTTP/1.1\r\nHost: %s\r\nCookie: %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n",
				u.Host, strings.Join(cookies, "; "), mw.FormDataContentType(), body.Len())
			conn.Write(body.Bytes()[:20])
			go func() {
				resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
				if err != nil {
					answers <- answer{}
					return
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				answers <- answer{resp.StatusCode, string(b)}
			}()
		}
		// Meanwhile another account's checks all find a slot.
		for range 20 {
			expect(t, e.postSheet(other, "a.csv", sheet, true), http.StatusOK, "")
			time.Sleep(10 * time.Millisecond)
		}
		// A burst from the hog gets nothing more.
		var wg sync.WaitGroup
		statuses := make(chan int, 6)
		for range 6 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				statuses <- e.postSheet(hog, "a.csv", sheet, true).StatusCode
			}()
		}
		wg.Wait()
		close(statuses)
		for s := range statuses {
			if s != http.StatusTooManyRequests {
				t.Errorf("the hog's burst: status %d, want 429", s)
			}
		}
		expect(t, e.postSheet(other, "a.csv", sheet, true), http.StatusOK, "")
		// Of the two slow checks one ran, the other was refused.
		for _, conn := range conns {
			conn.Write(body.Bytes()[20:])
		}
		got := map[int]int{}
		for range 2 {
			a := <-answers
			got[a.status]++
			if a.status == http.StatusTooManyRequests && !strings.Contains(a.body, msgBulkOwnBusy) {
				t.Errorf("the refused slow check: %s", a.body)
			}
		}
		if got[http.StatusOK] != 1 || got[http.StatusTooManyRequests] != 1 {
			t.Errorf("slow checks: %v, want one 200 and one 429", got)
		}
		expect(t, e.postSheet(hog, "a.csv", sheet, true), http.StatusOK, "")
	})
}

// An Idempotency-Key is the workspace's: the same key in another of the
// member's workspaces makes a job there, and another member's repeat in
// the workspace answers the workspace's job.
func TestBulkIdempotencyKeyPerWorkspace(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		f := newTeam(t, e)
		owner, editor := f.members["owner"], f.members["editor"]
		var list []map[string]any
		e.getJSON(editor, "/api/workspaces", &list)
		personal := ""
		for _, w := range list {
			if w["personal"] == true {
				personal = fmt.Sprint(w["id"])
			}
		}
		team := fmt.Sprint(f.ws)
		sheet := "url\nhttps://example.com/a\n"
		expect(t, e.do(editor, "POST", "/api/workspaces/"+personal+"/activate", ""), http.StatusOK, "")
		mine := idOf(expect(t, e.postSheet(editor, "a.csv", sheet, false, "Idempotency-Key", "same"), http.StatusAccepted, ""))
		expect(t, e.do(editor, "POST", "/api/workspaces/"+team+"/activate", ""), http.StatusOK, "")
		theirs := idOf(expect(t, e.postSheet(editor, "a.csv", sheet, false, "Idempotency-Key", "same"), http.StatusAccepted, ""))
		if theirs == mine {
			t.Fatalf("the key answered the personal workspace's job in the team")
		}
		expect(t, e.do(owner, "POST", "/api/workspaces/"+team+"/activate", ""), http.StatusOK, "")
		if again := expect(t, e.postSheet(owner, "a.csv", sheet, false, "Idempotency-Key", "same"), http.StatusOK, ""); idOf(again) != theirs {
			t.Fatalf("the owner's repeat answered job %s, want the team's %s", idOf(again), theirs)
		}
		expect(t, e.do(owner, "GET", "/api/bulk-jobs/"+mine, ""), http.StatusNotFound, msgJobMissing)
		if n := storetest.Count(t, st, "bulk_jobs"); n != 2 {
			t.Fatalf("%d jobs, want 2", n)
		}
	})
}

// A row's brandKit is found as the database's unique index compares kit
// names, on both databases: strings.ToLower took "k" for a kit named with
// the Kelvin sign and "İnfo" for "info", which SQLite tells apart (its
// lower() folds ASCII only), so such a row got a kit it did not name.
func TestBulkKitNamesAsTheDatabase(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c, _ := e.signedIn("kits@example.com")
		for _, name := range []string{"\u212a", "info"} {
			expect(t, e.do(c, "POST", "/api/brand-kits", `{"name":"`+name+`","fgColor":"#123456"}`), http.StatusCreated, "")
		}
		m := expect(t, e.postSheet(c, "kits.csv", "url,brandKit\nhttps://a.example,k\nhttps://b.example,İnfo\n", true), http.StatusOK, "")
		failed := map[float64]bool{}
		for _, x := range m["errors"].([]any) {
			if r := x.(map[string]any); r["column"] == "brandKit" {
				failed[r["row"].(float64)] = true
			}
		}
		for row, names := range map[float64][2]string{2: {"k", "\u212a"}, 3: {"İnfo", "info"}} {
			if same := sameName(t, st, names[0], names[1]); failed[row] == same {
				t.Errorf("row %v: brandKit %q beside a kit %q (one name to the database: %t): refused %t", row, names[0], names[1], same, failed[row])
			}
		}
	})
}
