package server

import (
	"bytes"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/squarely/squarely/internal/imaging"
)

// Hosted pages' images at the widths of their srcset (imaging.Widths):
// GET /images/{id}/file?w=320. Only those widths are made, each once per
// image while it is cached, and at most scaleWorkers at a time, so the
// route cannot be used to keep the CPU busy.

const (
	maxScaledBytes = 32 << 20 // scaled images kept; the cache is emptied past it
	scaleWorkers   = 2
)

type scaledImages struct {
	mu    sync.Mutex
	m     map[string]*imaging.Image // by the original's SHA-256 and the width
	bytes int
	slots chan struct{}
}

func newScaledImages() *scaledImages {
	return &scaledImages{m: map[string]*imaging.Image{}, slots: make(chan struct{}, scaleWorkers)}
}

func (c *scaledImages) get(key string) *imaging.Image {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[key]
}

func (c *scaledImages) put(key string, img *imaging.Image) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.bytes+len(img.Data) > maxScaledBytes {
		clear(c.m)
		c.bytes = 0
	}
	c.m[key] = img
	c.bytes += len(img.Data)
}

// serveScaled answers an image upload scaled to the width ?w= names: one
// of imaging.Widths (400 otherwise). An image no wider, or of unknown
// size, is answered as stored.
func (s *server) serveScaled(w http.ResponseWriter, r *http.Request) {
	width, err := strconv.Atoi(r.URL.Query().Get("w"))
	if err != nil || !slices.Contains(imaging.Widths, width) {
		http.Error(w, "w must be one of "+joinInts(imaging.Widths), http.StatusBadRequest)
		return
	}
	info := s.blobOfKind(w, r, "image", false)
	if info == nil {
		return
	}
	key := info.SHA256 + "/" + strconv.Itoa(width)
	img := s.scaled.get(key)
	if img == nil {
		b := s.blobOfKind(w, r, "image", true)
		if b == nil {
			return
		}
		if b.Width == 0 || width >= b.Width {
			img = &imaging.Image{Data: b.Data, ContentType: b.ContentType}
		} else {
			s.scaled.slots <- struct{}{}
			img, err = imaging.Resize(b.Data, width)
			<-s.scaled.slots
			if err != nil {
				s.internalError(w, "scaling an image", err)
				return
			}
			s.scaled.put(key, img)
		}
	}
	h := w.Header()
	h.Set("Content-Type", img.ContentType)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", blobCSP)
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("ETag", `"`+key+`"`)
	http.ServeContent(w, r, "", info.CreatedAt, bytes.NewReader(img.Data))
}

// joinInts is list as "160, 320, …".
func joinInts(list []int) string {
	out := make([]string, len(list))
	for i, n := range list {
		out[i] = strconv.Itoa(n)
	}
	return strings.Join(out, ", ")
}
