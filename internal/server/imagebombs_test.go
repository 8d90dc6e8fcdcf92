package server

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"net/http"
	"runtime"
	"runtime/debug"
	"sync"
	"testing"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// solidPNG is a w×h PNG of one grey at depth 8 or 16 bits, colour type 6
// (RGBA), written row by row: a few hundred kilobytes that decode to
// w·h·4 (8-bit) or w·h·8 (16-bit) bytes.
func solidPNG(w, h int, depth byte) []byte {
	var out bytes.Buffer
	out.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(typ string, data []byte) {
		var b [4]byte
		binary.BigEndian.PutUint32(b[:], uint32(len(data)))
		out.Write(b[:])
		out.WriteString(typ)
		out.Write(data)
		crc := crc32.NewIEEE()
		crc.Write([]byte(typ))
		crc.Write(data)
		binary.BigEndian.PutUint32(b[:], crc.Sum32())
		out.Write(b[:])
	}
	hdr := make([]byte, 13)
	binary.BigEndian.PutUint32(hdr[0:], uint32(w))
	binary.BigEndian.PutUint32(hdr[4:], uint32(h))
	hdr[8], hdr[9] = depth, 6
	chunk("IHDR", hdr)
	var z bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
	row := bytes.Repeat([]byte{0x80}, 1+w*4*int(depth/8))
	row[0] = 0 // filter: none
	for range h {
		zw.Write(row)
	}
	zw.Close()
	chunk("IDAT", z.Bytes())
	chunk("IEND", nil)
	return out.Bytes()
}

// progressiveJPEG is a w×h progressive JPEG with three full-resolution
// components (4:4:4) and one DC scan of zeros: about w·h/170 bytes that
// Go decodes keeping 4 bytes of coefficients a pixel per component, then
// into a 3-byte-a-pixel image.
func progressiveJPEG(w, h int) []byte {
	var b bytes.Buffer
	b.Write([]byte{0xFF, 0xD8})
	seg := func(marker byte, p []byte) {
		b.Write([]byte{0xFF, marker, byte((len(p) + 2) >> 8), byte(len(p) + 2)})
		b.Write(p)
	}
	seg(0xDB, append([]byte{0}, bytes.Repeat([]byte{1}, 64)...)) // quantisation table 0
	sof := []byte{8, byte(h >> 8), byte(h), byte(w >> 8), byte(w), 3}
	for c := range 3 {
		sof = append(sof, byte(c+1), 0x11, 0)
	}
	seg(0xC2, sof) // SOF2: progressive
	dht := make([]byte, 18)
	dht[1] = 1     // DC table 0: one code of length 1,
	seg(0xC4, dht) // for category 0 (no change)
	seg(0xDA, []byte{3, 1, 0, 2, 0, 3, 0, 0, 0, 0})
	b.Write(make([]byte, (w+7)/8*((h+7)/8)*3/8+16))
	b.Write([]byte{0xFF, 0xD9})
	return b.Bytes()
}

// An image that is small as a file but decodes to far more than an 8-bit
// image at the pixel limit (a 16-bit PNG, a progressive JPEG) is refused
// before it is decoded; before, a 400 KB 16-bit PNG of 26 megapixels took
// 400 MB and 8 s of CPU to clean, and a 300 KB progressive JPEG of 49
// megapixels 700 MB and 11 s.
func TestImageUploadDecodeBombsRefused(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		visitor := e.browser()
		const msg = "The image is too large to process (at most 50 megapixels, fewer in 16-bit colour or as a progressive JPEG)"
		for _, tc := range []struct {
			name string
			data []byte
		}{
			{"16-bit PNG 5100×5100", solidPNG(5100, 5100, 16)},
			{"progressive JPEG 4000×4000", progressiveJPEG(4000, 4000)},
		} {
			var allocated uint64
			var r *response
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			before := m.TotalAlloc
			r = e.postForm(visitor, "/api/upload-image", part{"imageFile", string(tc.data), "bomb.img"})
			runtime.ReadMemStats(&m)
			allocated = m.TotalAlloc - before
			t.Logf("%s: %d KB file, %d MB allocated, status %d", tc.name, len(tc.data)>>10, allocated>>20, r.StatusCode)
			expect(t, r, http.StatusUnsupportedMediaType, msg)
			if allocated > 64<<20 {
				t.Errorf("%s: refusing it allocated %d MB", tc.name, allocated>>20)
			}
		}
		expectBlobs(t, st, 0)
		// The same kinds at a size within the bound are taken.
		expect(t, e.postForm(visitor, "/api/upload-image", part{"imageFile", string(solidPNG(1000, 1000, 16)), "deep.png"}), http.StatusCreated, "")
		expect(t, e.postForm(visitor, "/api/upload-image", part{"imageFile", string(progressiveJPEG(1000, 1000)), "p.jpg"}), http.StatusCreated, "")
	})
}

// Cleaning uploaded images (decoding and encoding them again) waits for
// a render slot: free accounts uploading at once, two each, cannot hold
// more decoded images than there are slots, and when none frees up in
// time the upload is 503, as renders are.
func TestImageCleaningTakesRenderSlots(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		prev := runtime.GOMAXPROCS(1) // two render slots
		e := start(t, st)
		runtime.GOMAXPROCS(prev)
		const accounts, each = 6, 2
		clients := make([]*http.Client, accounts)
		for i := range clients {
			clients[i], _ = e.signedIn(fmt.Sprintf("cleaner%d@example.com", i))
		}
		img := string(solidPNG(4000, 4000, 8)) // 64 MB decoded
		var mu sync.Mutex
		statuses := map[int]int{}
		// The heap then follows what is live, not what the collector left.
		defer debug.SetGCPercent(debug.SetGCPercent(10))
		grown := peakHeap(func() {
			var wg sync.WaitGroup
			for _, c := range clients {
				for range each {
					wg.Go(func() {
						r := e.postForm(c, "/api/upload-image", part{"imageFile", img, "big.png"})
						mu.Lock()
						statuses[r.StatusCode]++
						mu.Unlock()
					})
				}
			}
			wg.Wait()
		})
		t.Logf("%d parallel uploads of a 64 MB image: statuses %v, heap grew by %d MB", accounts*each, statuses, grown>>20)
		// Those that wait longer than renderWait for a slot are told the
		// server is busy.
		if statuses[http.StatusCreated] < 2 || statuses[http.StatusCreated]+statuses[http.StatusServiceUnavailable] != accounts*each {
			t.Errorf("statuses %v, want 201 or 503", statuses)
		}
		// Two slots: two images of 64 MB and their copies, about 190 MB
		// when the test runs alone; twelve at once are 750 MB or more.
		// The bound leaves room for what the package's earlier tests'
		// servers still allocate beside it (the heap is the process's):
		// up to 440 MB in a whole run.
		if grown > 600<<20 {
			t.Errorf("%d parallel uploads grew the heap by %d MB", accounts*each, grown>>20)
		}
	})
}

// Requests at once for an uploaded image at a width not yet made (anyone
// may ask: /images/{id}/file?w= is public) fetch and decode the original
// once between them, not once each: the others wait for the scale slot
// and find the result cached. Before, 24 requests decoded it 24 times.
func TestScaledImageMadeOnceForParallelRequests(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st)
		up := expect(t, e.postForm(e.browser(), "/api/upload-image", part{"imageFile", string(solidPNG(3000, 3000, 8)), "big.png"}), http.StatusCreated, "")
		path := "/images/" + idOf(up) + "/file"
		allocated := func(f func()) uint64 {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			before := m.TotalAlloc
			f()
			runtime.ReadMemStats(&m)
			return m.TotalAlloc - before
		}
		one := allocated(func() { expect(t, e.do(e.browser(), "GET", path+"?w=320", ""), http.StatusOK, "") })
		const n = 24
		statuses := make([]int, n)
		many := allocated(func() {
			var wg sync.WaitGroup
			for i := range n {
				wg.Go(func() { statuses[i] = e.do(e.browser(), "GET", path+"?w=160", "").StatusCode })
			}
			wg.Wait()
		})
		t.Logf("one scaling allocated %d MB; %d requests at once %d MB", one>>20, n, many>>20)
		for i, s := range statuses {
			if s != http.StatusOK {
				t.Errorf("request %d: status %d", i, s)
			}
		}
		if many > 4*one {
			t.Errorf("%d requests at once allocated %d MB, one %d MB", n, many>>20, one>>20)
		}
	})
}
