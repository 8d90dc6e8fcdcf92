package server

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/squarely/squarely/internal/imaging"
	"github.com/squarely/squarely/internal/store"
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
	var img *imaging.Image
	if info.Width == 0 || width >= info.Width {
		b := s.blobOfKind(w, r, "image", true)
		if b == nil {
			return
		}
		img = &imaging.Image{Data: b.Data, ContentType: b.ContentType}
	} else {
		img, err = s.scaleBlob(r.Context(), info.ID, info.SHA256, width)
		switch {
		case errors.Is(err, errBusy):
			w.Header().Set("Retry-After", "5")
			http.Error(w, "The server is busy. Please try again in a moment.", http.StatusServiceUnavailable)
			return
		case r.Context().Err() != nil:
			return // the client has gone
		case errors.Is(err, store.ErrNotFound): // deleted meanwhile
			w.Header().Set("X-Content-Type-Options", "nosniff")
			http.Error(w, "File not found", http.StatusNotFound)
			return
		case err != nil:
			s.internalError(w, "scaling an image", err)
			return
		}
	}
	h := w.Header()
	h.Set("Content-Type", img.ContentType)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", blobCSP)
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("ETag", `"`+info.SHA256+"/"+strconv.Itoa(width)+`"`)
	http.ServeContent(w, r, "", info.CreatedAt, bytes.NewReader(img.Data))
}

// scaleBlob is the image upload id, whose SHA-256 is sha, scaled to width:
// made in a scale slot and cached. Requests for it that arrive meanwhile
// wait for a slot (at most renderWait, then errBusy) and then find it
// cached: the original is fetched and decoded once, not once for each of
// them.
func (s *server) scaleBlob(ctx context.Context, id int64, sha string, width int) (*imaging.Image, error) {
	key := sha + "/" + strconv.Itoa(width)
	if img := s.scaled.get(key); img != nil {
		return img, nil
	}
	t := time.NewTimer(renderWait)
	defer t.Stop()
	select {
	case s.scaled.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-t.C:
		return nil, errBusy
	}
	defer func() { <-s.scaled.slots }()
	if img := s.scaled.get(key); img != nil {
		return img, nil
	}
	b, err := s.store.Blob(ctx, id)
	if err != nil {
		return nil, err
	}
	img, err := imaging.Resize(b.Data, width)
	if err != nil {
		return nil, err
	}
	s.scaled.put(key, img)
	return img, nil
}

// joinInts is list as "160, 320, …".
func joinInts(list []int) string {
	out := make([]string, len(list))
	for i, n := range list {
		out[i] = strconv.Itoa(n)
	}
	return strings.Join(out, ", ")
}
