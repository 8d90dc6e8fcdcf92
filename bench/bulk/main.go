// Command bulk drives make bench-bulk (see bench/bulk.sh): a 10,000-row
// spreadsheet job through a running squarely, and the same rows through
// the renderer alone as the floor.
//
//	bulk floor N             render N rows as PNG (512 px) and SVG on every core, no server
//	bulk job ADDR N          sign up, dry-run, queue and download a job of N rows at http://ADDR;
//	                         every PNG entry is decoded (gozxing) and compared with its row
//
// Each prints "bench: name=value" lines and exits non-zero when a target
// is missed: validation <= 2 s, the whole ZIP <= 30 s.
package main

import (
	"archive/zip"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/makiuchi-d/gozxing"
	zxqr "github.com/makiuchi-d/gozxing/qrcode"

	"github.com/squarely/squarely/internal/codes"
	"github.com/squarely/squarely/internal/qr"
)

// Targets of issue 12.
const (
	maxValidation = 2 * time.Second
	maxWholeZIP   = 30 * time.Second
)

func main() {
	var err error
	switch {
	case len(os.Args) == 3 && os.Args[1] == "floor":
		err = floor(count(os.Args[2]))
	case len(os.Args) == 4 && os.Args[1] == "job":
		err = job(os.Args[2], count(os.Args[3]))
	default:
		err = errors.New("usage: bulk floor N | bulk job ADDR N")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bulk:", err)
		os.Exit(1)
	}
}

func count(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		fmt.Fprintln(os.Stderr, "bulk: N must be a positive number")
		os.Exit(2)
	}
	return n
}

// content is row i's data: URLs and texts, mixed.
func content(i int) (qrType, data string) {
	if i%2 == 0 {
		return "url", fmt.Sprintf("https://shop.example.com/products/%d?ref=label", i)
	}
	return "text", fmt.Sprintf("Asset tag %06d, building B, floor 2", i)
}

// sheet is the job's CSV: type, url, text and name columns, plain style.
func sheet(n int) []byte {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write([]string{"type", "url", "text", "name"})
	for i := 1; i <= n; i++ {
		t, d := content(i)
		row := []string{t, "", "", fmt.Sprintf("Row %d", i)}
		if t == "url" {
			row[1] = d
		} else {
			row[2] = d
		}
		w.Write(row)
	}
	w.Flush()
	return buf.Bytes()
}

// floor renders every row as PNG at 512 px and as SVG, on every core, the
// way the server's ZIP does, but with no database and no HTTP.
func floor(n int) error {
	style, err := codes.Style{}.Normalize()
	if err != nil {
		return err
	}
	for _, format := range []codes.Format{codes.PNG, codes.SVG} {
		start := time.Now()
		workers := runtime.GOMAXPROCS(0)
		var wg sync.WaitGroup
		errs := make([]error, workers)
		for wk := range workers {
			wg.Go(func() {
				var buf bytes.Buffer
				for i := 1 + wk; i <= n; i += workers {
					_, d := content(i)
					buf.Reset()
					if err := codes.Write(&buf, d, style, codes.Options{Format: format, Level: qr.H, Pixels: 512}); err != nil {
						errs[wk] = err
						return
					}
				}
			})
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			return err
		}
		fmt.Printf("bench: floor_%s=%.2fs\n", format, time.Since(start).Seconds())
	}
	return nil
}

type client struct {
	base string
	http *http.Client
}

func (c *client) do(req *http.Request) (*http.Response, []byte, error) {
	res, err := c.http.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return res, b, err
}

func (c *client) post(path, contentType string, body []byte, want int) ([]byte, error) {
	req, _ := http.NewRequest("POST", c.base+path, bytes.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	res, b, err := c.do(req)
	if err != nil {
		return nil, err
	}
	if res.StatusCode != want {
		return nil, fmt.Errorf("POST %s: %d %s", path, res.StatusCode, b)
	}
	return b, nil
}

func (c *client) upload(data []byte, dryRun bool, want int) ([]byte, error) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	if dryRun {
		mw.WriteField("dryRun", "true")
	}
	fw, _ := mw.CreateFormFile("file", "bench.csv")
	fw.Write(data)
	mw.Close()
	return c.post("/api/bulk-jobs", mw.FormDataContentType(), buf.Bytes(), want)
}

func job(addr string, n int) error {
	jar, _ := cookiejar.New(nil)
	c := &client{base: "http://" + addr, http: &http.Client{Jar: jar, Timeout: 5 * time.Minute}}
	email := fmt.Sprintf("bench-%d@squarely.test", time.Now().UnixNano())
	reg, _ := json.Marshal(map[string]string{"username": email, "email": email, "password": "bench-secret", "confirmPassword": "bench-secret", "firstName": "", "lastName": ""})
	if _, err := c.post("/api/register", "application/json", reg, http.StatusCreated); err != nil {
		return err
	}
	data := sheet(n)
	fmt.Printf("bench: rows=%d file_bytes=%d\n", n, len(data))

	start := time.Now()
	body, err := c.upload(data, true, http.StatusOK)
	if err != nil {
		return err
	}
	validation := time.Since(start)
	var dry struct{ Valid, Failed int }
	json.Unmarshal(body, &dry)
	if dry.Valid != n {
		return fmt.Errorf("dry run: %d valid rows of %d", dry.Valid, n)
	}
	fmt.Printf("bench: validation=%.2fs\n", validation.Seconds())

	start = time.Now()
	body, err = c.upload(data, false, http.StatusAccepted)
	if err != nil {
		return err
	}
	var j struct {
		ID                       int64
		Status                   string
		Total, Processed, Failed int
	}
	json.Unmarshal(body, &j)
	queued := time.Since(start)
	longestGap, last, lastChange := time.Duration(0), -1, time.Now()
	for j.Status != "done" && j.Status != "failed" {
		time.Sleep(200 * time.Millisecond)
		req, _ := http.NewRequest("GET", fmt.Sprintf("%s/api/bulk-jobs/%d", c.base, j.ID), nil)
		res, b, err := c.do(req)
		if err != nil || res.StatusCode != http.StatusOK {
			return fmt.Errorf("progress: %v %s", err, b)
		}
		json.Unmarshal(b, &j)
		if j.Processed != last {
			longestGap = max(longestGap, time.Since(lastChange))
			last, lastChange = j.Processed, time.Now()
		}
	}
	saved := time.Since(start)
	if j.Status != "done" || j.Failed != 0 || j.Processed != n {
		return fmt.Errorf("job ended %s with %d of %d processed, %d failed", j.Status, j.Processed, n, j.Failed)
	}
	fmt.Printf("bench: upload_and_check=%.2fs saved=%.2fs longest_progress_gap=%.2fs\n", queued.Seconds(), saved.Seconds(), longestGap.Seconds())

	total := saved
	zips := map[string][]byte{}
	for _, format := range []string{"png", "svg"} {
		start := time.Now()
		req, _ := http.NewRequest("GET", fmt.Sprintf("%s/api/bulk-jobs/%d/download?format=%s", c.base, j.ID, format), nil)
		res, b, err := c.do(req)
		if err != nil || res.StatusCode != http.StatusOK {
			return fmt.Errorf("download %s: %v", format, err)
		}
		took := time.Since(start)
		total += took
		zips[format] = b
		fmt.Printf("bench: zip_%s=%.2fs zip_%s_bytes=%d\n", format, took.Seconds(), format, len(b))
	}
	fmt.Printf("bench: whole_zip=%.2fs (save + PNG ZIP + SVG ZIP)\n", total.Seconds())

	if err := verify(zips["png"], n); err != nil {
		return err
	}
	fmt.Printf("bench: decoded=%d of %d PNG entries\n", n, n)

	var missed []string
	if validation > maxValidation {
		missed = append(missed, fmt.Sprintf("validation %.2fs > %s", validation.Seconds(), maxValidation))
	}
	if total > maxWholeZIP {
		missed = append(missed, fmt.Sprintf("whole ZIP %.2fs > %s", total.Seconds(), maxWholeZIP))
	}
	if missed != nil {
		return errors.New("targets missed: " + strings.Join(missed, "; "))
	}
	return nil
}

// verify decodes every PNG entry with gozxing (a decoder we did not write)
// and compares it with its row.
func verify(zipBytes []byte, n int) error {
	zr, err := zip.NewReader(bytes.NewReader(zipBytes), int64(len(zipBytes)))
	if err != nil {
		return err
	}
	type entry struct {
		row  int
		file *zip.File
	}
	var entries []entry
	for _, f := range zr.File {
		var row int
		if _, err := fmt.Sscanf(f.Name, "qr-code-%d.png", &row); err == nil {
			entries = append(entries, entry{row, f})
		}
	}
	if len(entries) != n {
		return fmt.Errorf("the PNG ZIP holds %d images, want %d", len(entries), n)
	}
	workers := runtime.GOMAXPROCS(0)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for wk := range workers {
		wg.Go(func() {
			reader := zxqr.NewQRCodeReader()
			for i := wk; i < len(entries); i += workers {
				e := entries[i]
				rc, err := e.file.Open()
				if err != nil {
					errs[wk] = err
					return
				}
				img, err := png.Decode(rc)
				rc.Close()
				if err != nil {
					errs[wk] = fmt.Errorf("%s: %w", e.file.Name, err)
					return
				}
				bmp, _ := gozxing.NewBinaryBitmapFromImage(img)
				res, err := reader.Decode(bmp, map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_PURE_BARCODE: true})
				if err != nil {
					errs[wk] = fmt.Errorf("%s does not scan: %w", e.file.Name, err)
					return
				}
				if _, want := content(e.row); res.GetText() != want {
					errs[wk] = fmt.Errorf("%s reads %q, want %q", e.file.Name, res.GetText(), want)
					return
				}
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}
