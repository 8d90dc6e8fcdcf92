package server

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// floodPNG is a real decompression bomb: a PNG of a few tens of kilobytes
// that decodes to 4096×4096 pixels.
func floodPNG(t *testing.T) []byte {
	t.Helper()
	img := image.NewGray(image.Rect(0, 0, 4096, 4096))
	for i := range img.Pix {
		img.Pix[i] = byte(i / 4096 % 7 * 30) // stripes, so it is not one colour
	}
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// peakHeap runs fn while sampling the heap, and returns how far it grew
// above where it started.
func peakHeap(fn func()) uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	base := m.HeapInuse
	var peak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	fn()
	close(stop)
	<-sampled
	return max(peak.Load(), base) - base
}

// A logo that decodes to 4096×4096 is decoded once, at upload, and stored
// at most 512 pixels a side; 30 previews at once with it then stay within
// a small memory bound (each decoding the full image took 4 GB).
func TestLogoBombWithParallelPreviews(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c, _ := e.signedIn("bomb@example.com")
		bomb := floodPNG(t)
		t.Logf("the logo file is %d KB", len(bomb)>>10)
		up := expect(t, e.postForm(c, "/api/upload-logo", part{"logoFile", string(bomb), "bomb.png"}), http.StatusCreated, "")
		stored, err := st.Blob(context.Background(), int64(up["id"].(float64)))
		if err != nil {
			t.Fatal(err)
		}
		cfg, format, err := image.DecodeConfig(bytes.NewReader(stored.Data))
		if err != nil || format != "png" || cfg.Width > 1024 || cfg.Height > 1024 || stored.ContentType != "image/png" {
			t.Fatalf("stored logo: %s %dx%d (%v), %s", format, cfg.Width, cfg.Height, err, stored.ContentType)
		}

		body := fmt.Sprintf(`{"qrType":"url","url":"https://example.com/menu","logoId":%d,"temporary":true,"size":1200}`, stored.ID)
		var failed atomic.Int32
		grown := peakHeap(func() {
			var wg sync.WaitGroup
			for range 30 {
				wg.Go(func() {
					req, _ := http.NewRequest("POST", e.srv.URL+"/api/generate-qrcode", strings.NewReader(body))
					req.Header.Set("Content-Type", "application/json")
					resp, err := c.Do(req)
					if err != nil || resp.StatusCode != http.StatusOK {
						failed.Add(1)
					}
					if err == nil {
						resp.Body.Close()
					}
				})
			}
			wg.Wait()
		})
		if failed.Load() > 0 {
			t.Errorf("%d of 30 previews failed", failed.Load())
		}
		t.Logf("30 parallel previews grew the heap by %d MB", grown>>20)
		if grown > 256<<20 {
			t.Errorf("30 parallel previews grew the heap by %d MB", grown>>20)
		}
	})
}

// uploadPDF posts a PDF upload of data and returns its status (0 when the
// connection failed: the server may close it without reading the body).
func uploadPDF(c *http.Client, url string, data []byte) int {
	var head bytes.Buffer
	mw := multipart.NewWriter(&head)
	mw.CreateFormFile("pdfFile", "big.pdf")
	tail := "\r\n--" + mw.Boundary() + "--\r\n"
	req, _ := http.NewRequest("POST", url+"/api/upload-pdf", io.MultiReader(bytes.NewReader(head.Bytes()), bytes.NewReader(data), strings.NewReader(tail)))
	req.Header.Set("Content-Type", mw.FormDataContentType())
	resp, err := c.Do(req)
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

// 40 parallel 20 MB uploads from one account are not all taken: two at a
// time are read, the others are refused at once with 429, before their
// body is read.
func TestParallelUploadsBounded(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c, _ := e.signedIn("uploads@example.com")
		data := append([]byte("%PDF-1.4\n"), make([]byte, 20<<20-16)...)
		var mu sync.Mutex
		statuses := map[int]int{}
		var wg sync.WaitGroup
		for range 40 {
			wg.Go(func() {
				code := uploadPDF(c, e.srv.URL, data)
				mu.Lock()
				statuses[code]++
				mu.Unlock()
			})
		}
		wg.Wait()
		stored := storetest.Count(t, st, "blobs")
		if statuses[http.StatusCreated] == 40 || stored != statuses[http.StatusCreated] ||
			statuses[http.StatusCreated]+statuses[http.StatusTooManyRequests]+statuses[0] != 40 {
			t.Errorf("statuses %v, %d files stored; want some 429 and every 201 stored", statuses, stored)
		}
	})
}

// An account's files stay within SQUARELY_STORAGE_QUOTA_MB.
func TestStorageQuota(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st, withConfig(func(c *config.Config) { c.StorageQuotaMB = 1 }))
		c, uid := e.signedIn("quota@example.com")
		data := append([]byte("%PDF-1.4\n"), make([]byte, 400<<10)...)
		for i := range 2 {
			if code := uploadPDF(c, e.srv.URL, data); code != http.StatusCreated {
				t.Fatalf("upload %d: %d", i+1, code)
			}
		}
		r := e.postForm(c, "/api/upload-pdf", part{"pdfFile", string(data), "third.pdf"})
		expect(t, r, http.StatusRequestEntityTooLarge, "Your files would take more than your 1 MB of storage. Please delete files you no longer need."+msgFreeShared)
		if used, _ := st.BlobBytes(context.Background(), uid); used != 2*int64(len(data)) {
			t.Errorf("%d bytes stored, want %d", used, 2*len(data))
		}
	})
}

// Previews are limited per address and, signed in, per account, so one
// account cannot spread its previews over many addresses.
func TestPreviewRateLimits(t *testing.T) {
	st := storetest.Open(t)
	e := start(t, st, withConfig(func(c *config.Config) { c.TrustProxy = true }))
	const body = `{"qrType":"url","url":"https://example.com","temporary":true}`
	preview := func(c *http.Client, addr string) *response {
		return e.do(c, "POST", "/api/generate-qrcode", body, "X-Forwarded-For", addr)
	}
	visitor := e.browser()
	for i := range previewsPerMinute {
		if r := preview(visitor, "198.51.100.1"); r.StatusCode != http.StatusOK {
			t.Fatalf("preview %d: %d %s", i+1, r.StatusCode, r.body)
		}
	}
	expect(t, preview(visitor, "198.51.100.1"), http.StatusTooManyRequests, "Too many QR code previews. Please wait a moment.")
	expect(t, preview(visitor, "198.51.100.2"), http.StatusOK, "")

	member, _ := e.signedIn("previews@example.com")
	for i := range previewsPerMinute {
		if r := preview(member, "203.0.113."+strconv.Itoa(i%200+1)); r.StatusCode != http.StatusOK {
			t.Fatalf("preview %d: %d %s", i+1, r.StatusCode, r.body)
		}
	}
	expect(t, preview(member, "192.0.2.77"), http.StatusTooManyRequests, "Too many QR code previews. Please wait a moment.")
	e.clock.Advance(time.Minute)
	expect(t, preview(member, "192.0.2.77"), http.StatusOK, "")
}

// Generation records are counted per account (track-generation wrote
// 535 MB in 15 s for one account).
func TestGenerationRecordsPerAccount(t *testing.T) {
	st := storetest.Open(t)
	e := start(t, st)
	c, _ := e.signedIn("records@example.com")
	const body = `{"qrType":"url","qrData":"https://example.com"}`
	for i := range recordsPerHour {
		if r := e.do(c, "POST", "/api/track-generation", body); r.StatusCode != http.StatusCreated {
			t.Fatalf("record %d: %d %s", i+1, r.StatusCode, r.body)
		}
	}
	expect(t, e.do(c, "POST", "/api/track-generation", body), http.StatusTooManyRequests, "Too many QR codes from this account. Please try again later.")
	if n := storetest.Count(t, st, "qr_generations"); n != recordsPerHour {
		t.Errorf("%d generations stored, want %d", n, recordsPerHour)
	}
}

// A full-size logo stored before logos were normalised at upload is
// normalised on its first use and stored back: 30 parallel previews with it
// stay within the same memory bound.
func TestStoredLogoNormalisedOnFirstUse(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		c, uid := e.signedIn("legacy@example.com")
		ws := storetest.Personal(t, st, uid)
		b := &store.Blob{OwnerID: &uid, WorkspaceID: &ws, Kind: "logo", FileName: "old.png", ContentType: "image/png", Data: floodPNG(t)}
		if err := st.CreateBlob(context.Background(), b); err != nil {
			t.Fatal(err)
		}
		body := fmt.Sprintf(`{"qrType":"url","url":"https://example.com/menu","logoId":%d,"temporary":true,"size":1200}`, b.ID)
		var failed atomic.Int32
		grown := peakHeap(func() {
			var wg sync.WaitGroup
			for range 30 {
				wg.Go(func() {
					req, _ := http.NewRequest("POST", e.srv.URL+"/api/generate-qrcode", strings.NewReader(body))
					req.Header.Set("Content-Type", "application/json")
					resp, err := c.Do(req)
					if err != nil || resp.StatusCode != http.StatusOK {
						failed.Add(1)
					}
					if err == nil {
						resp.Body.Close()
					}
				})
			}
			wg.Wait()
		})
		t.Logf("30 parallel previews grew the heap by %d MB", grown>>20)
		if failed.Load() > 0 || grown > 256<<20 {
			t.Errorf("%d of 30 previews failed; the heap grew by %d MB", failed.Load(), grown>>20)
		}
		stored, err := st.Blob(context.Background(), b.ID)
		if err != nil {
			t.Fatal(err)
		}
		cfg, format, err := image.DecodeConfig(bytes.NewReader(stored.Data))
		if err != nil || format != "png" || cfg.Width > 512 || stored.Size != int64(len(stored.Data)) {
			t.Errorf("stored logo after use: %s %dx%d (%v), size %d", format, cfg.Width, cfg.Height, err, stored.Size)
		}
	})
}
