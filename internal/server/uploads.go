package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // image formats an upload may be
	_ "image/jpeg"
	_ "image/png"
	"io"
	"mime"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	_ "golang.org/x/image/webp"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/codes"
	"github.com/squarely/squarely/internal/imaging"
	"github.com/squarely/squarely/internal/render"
	"github.com/squarely/squarely/internal/store"
)

// Upload limits. Files are checked by their content, never by the name or
// the type the browser claims.
const (
	maxPDFBytes   = 20 << 20
	maxImageBytes = 10 << 20
	maxLogoBytes  = 2 << 20
	// Pixel limits refuse decompression bombs: a small file that would
	// decode to gigabytes. A logo is decoded by the renderer (4096² is its
	// own limit); an image is only shown by browsers.
	maxLogoPixels  = 4096 * 4096
	maxImagePixels = 50_000_000

	maxFormValue  = codes.MaxFieldValue // bytes of one text field of a multipart form
	formOverhead  = 256 << 10           // bytes of a form beyond its file: text fields, part headers
	maxFileName   = 200                 // characters kept of an uploaded file's name
	maxUploadText = 1000                // characters of an upload's title or description

	// Visitors may upload images (the images type is free); this many per
	// hour per client address keeps the blob store from being used as free
	// file hosting.
	anonUploadsPerHour = 20
	// Signed-in users upload freely, but this many files an hour per
	// account (logos sent with a saved code included) keeps one account
	// from filling the database.
	userUploadsPerHour = 100
)

// upload is a file read from a multipart form.
type upload = codes.Upload

// multipartForm is a parsed multipart form: text fields and at most one file.
type multipartForm struct {
	values map[string]string
	file   *upload
}

func (f *multipartForm) get(k string) string { return f.values[k] }

// readMultipart reads a multipart/form-data body holding text fields and
// one optional file in fileField of at most fileLimit bytes, streaming it
// so no temporary files are made. On failure it has answered (400, 413 or
// 415) and returns nil. tooBig is the 413 message.
func readMultipart(w http.ResponseWriter, r *http.Request, fileField string, fileLimit int64, tooBig string) *multipartForm {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" {
		writeError(w, http.StatusUnsupportedMediaType, "Content-Type must be multipart/form-data")
		return nil
	}
	r.Body = http.MaxBytesReader(w, r.Body, fileLimit+formOverhead)
	mr, err := r.MultipartReader()
	if err != nil {
		writeError(w, http.StatusBadRequest, "Malformed multipart form")
		return nil
	}
	form := &multipartForm{values: map[string]string{}}
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			return form
		}
		if err != nil {
			formError(w, err, tooBig)
			return nil
		}
		name := part.FormName()
		if part.FileName() == "" && name != fileField {
			b, err := io.ReadAll(io.LimitReader(part, maxFormValue+1))
			if err != nil {
				formError(w, err, tooBig)
				return nil
			}
			if len(b) > maxFormValue {
				writeJSON(w, http.StatusBadRequest, apiError{Message: name + " is too long", Errors: map[string]string{name: "Too long"}})
				return nil
			}
			if !utf8.Valid(b) {
				writeJSON(w, http.StatusBadRequest, apiError{Message: name + " must be UTF-8 text", Errors: map[string]string{name: "Must be UTF-8 text"}})
				return nil
			}
			if bytes.IndexByte(b, 0) >= 0 {
				writeJSON(w, http.StatusBadRequest, apiError{Message: msgNUL, Errors: map[string]string{name: msgNUL}})
				return nil
			}
			if _, dup := form.values[name]; !dup {
				form.values[name] = string(b)
			}
			continue
		}
		if name != fileField || form.file != nil {
			writeError(w, http.StatusBadRequest, "Unexpected file in the form: "+name)
			return nil
		}
		data, err := io.ReadAll(io.LimitReader(part, fileLimit+1))
		if err != nil {
			formError(w, err, tooBig)
			return nil
		}
		if int64(len(data)) > fileLimit {
			writeError(w, http.StatusRequestEntityTooLarge, tooBig)
			return nil
		}
		if len(data) > 0 { // a form's empty file input sends a part with no content
			form.file = &upload{Name: safeFileName(part.FileName()), Data: data}
		}
	}
}

// formError answers a failure while reading a form: 413 past the body limit.
func formError(w http.ResponseWriter, err error, tooBig string) {
	if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
		writeError(w, http.StatusRequestEntityTooLarge, tooBig)
		return
	}
	writeError(w, http.StatusBadRequest, "Malformed multipart form")
}

// safeFileName keeps the last path element of a client's file name,
// without control, invisible formatting (such as bidi overrides, which
// disguise an extension) or quoting characters, at most maxFileName
// characters.
func safeFileName(name string) string {
	name = path.Base(strings.ReplaceAll(name, `\`, "/"))
	name = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || strings.ContainsRune(`"/\<>:|?*;`, r) {
			return -1
		}
		return r
	}, name)
	name = strings.TrimSpace(name)
	if r := []rune(name); len(r) > maxFileName {
		name = string(r[len(r)-maxFileName:])
	}
	if name == "." || name == ".." {
		return ""
	}
	return name
}

// storedExtensions are the extensions a stored file's name may end in, by
// its content type; the first is the one given to a name without them.
var storedExtensions = map[string][]string{
	"image/png": {".png"}, "image/jpeg": {".jpg", ".jpeg"}, "image/gif": {".gif"}, "application/pdf": {".pdf"},
}

// nameAs gives a client's file name the extension of what is stored under
// it, by its bytes: a WebP stored as a JPEG, a JPEG logo kept as a PNG or
// a file named "photo.txt" then opens as what it is when downloaded.
func nameAs(name, contentType string) string {
	exts := storedExtensions[contentType]
	ext := path.Ext(name)
	if len(exts) == 0 || slices.Contains(exts, strings.ToLower(ext)) {
		return name
	}
	return orDefault(strings.TrimSuffix(name, ext), "file") + exts[0]
}

// isPDF reports whether data is a PDF: it starts with the %PDF- header.
func isPDF(data []byte) bool { return bytes.HasPrefix(data, []byte("%PDF-")) }

// imageTypes maps the formats image.DecodeConfig names to content types.
var imageTypes = map[string]string{"png": "image/png", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp"}

// sniffImage returns the content type of a PNG, JPEG, GIF or WebP image,
// judged by its bytes (an SVG, which can hold script, is not an image
// here), or a message for the user.
func sniffImage(data []byte, maxPixels int) (string, string) {
	ct := http.DetectContentType(data)
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || imageTypes[format] != ct {
		return "", "Only PNG, JPEG, GIF or WebP images are allowed"
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width*cfg.Height > maxPixels {
		return "", fmt.Sprintf("The image is too large (at most %d megapixels)", maxPixels/1_000_000)
	}
	// What decoding takes, at most an 8-bit RGBA image at the pixel limit:
	// a 16-bit PNG or a progressive JPEG takes two to five times that.
	if n, err := imaging.DecodeBytes(data); err != nil || n > 4*int64(maxPixels) {
		return "", fmt.Sprintf("The image is too large to process (at most %d megapixels, fewer in 16-bit colour or as a progressive JPEG)", maxPixels/1_000_000)
	}
	return ct, ""
}

// limitedText trims a title or description and cuts it to maxUploadText characters.
func limitedText(s string) string {
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > maxUploadText {
		s = string(r[:maxUploadText])
	}
	return s
}

// ownerOf is the blob owner for the signed-in user, nil for a visitor.
func ownerOf(u *store.User) *int64 {
	if u == nil {
		return nil
	}
	return &u.ID
}

// uploadPDF (POST /api/upload-pdf, signed in: the pdf type needs an
// account) stores a PDF for the pdf type's page.
func (s *server) uploadPDF(w http.ResponseWriter, r *http.Request) {
	done, ok := s.holdUpload(w, r)
	if !ok {
		return
	}
	defer done()
	if !s.admitUpload(w, r) {
		return
	}
	form := readMultipart(w, r, "pdfFile", maxPDFBytes, "The PDF file is too large (at most 20 MB)")
	if form == nil {
		return
	}
	if form.file == nil {
		writeJSON(w, http.StatusBadRequest, apiError{Message: "Please select a PDF file", Errors: map[string]string{"pdfFile": "Please select a PDF file"}})
		return
	}
	if !isPDF(form.file.Data) {
		writeError(w, http.StatusUnsupportedMediaType, "Only PDF files are allowed")
		return
	}
	b := &store.Blob{
		OwnerID:     ownerOf(auth.UserFrom(r.Context())),
		WorkspaceID: workspaceOf(r),
		Kind:        "pdf",
		FileName:    nameAs(orDefault(form.file.Name, "document"), "application/pdf"),
		ContentType: "application/pdf",
		Data:        form.file.Data,
		Title:       limitedText(form.get("pdfTitle")),
		Description: limitedText(form.get("pdfDescription")),
		CreatedAt:   s.now(),
	}
	if !s.storeBlob(w, r, b, "saving a PDF") {
		return
	}
	writeJSON(w, http.StatusCreated, map[string]any{
		"id": b.ID, "pdfUrl": s.cfg.BaseURL + "/pdf/" + strconv.FormatInt(b.ID, 10), "fileName": b.FileName,
	})
}

// admitUpload counts a request that would store a file and reports
// whether it may go on; otherwise it has answered 429. Visitors are
// counted per address (anonUploadsPerHour), users per account
// (userUploadsPerHour).
func (s *server) admitUpload(w http.ResponseWriter, r *http.Request) bool {
	if u := auth.UserFrom(r.Context()); u != nil {
		return s.userUploads.take(w, strconv.FormatInt(u.ID, 10), "Too many uploads. Please try again later.")
	}
	return s.anonUploads.take(w, clientKey(r), "Too many uploads from this address. Please try again later or sign in.")
}

// uploadImage (POST /api/upload-image) stores an image for the images
// type's page. Visitors may upload (the type is free).
func (s *server) uploadImage(w http.ResponseWriter, r *http.Request) {
	u := auth.UserFrom(r.Context())
	done, ok := s.holdUpload(w, r)
	if !ok {
		return
	}
	defer done()
	if !s.admitUpload(w, r) {
		return
	}
	form := readMultipart(w, r, "imageFile", maxImageBytes, "The image is too large (at most 10 MB)")
	if form == nil {
		return
	}
	if form.file == nil {
		writeJSON(w, http.StatusBadRequest, apiError{Message: "Please select an image file", Errors: map[string]string{"imageFile": "Please select an image file"}})
		return
	}
	ct, problem := sniffImage(form.file.Data, maxImagePixels)
	if problem != "" {
		writeError(w, http.StatusUnsupportedMediaType, problem)
		return
	}
	// A JPEG, PNG or WebP is stored re-encoded, without its metadata (a
	// photo's place and camera); a GIF as it came, its frames kept.
	data, width, height := form.file.Data, 0, 0
	if ct != "image/gif" {
		// Decoding takes up to a few hundred megabytes and seconds of CPU:
		// it waits for a render slot, as logos and renders do.
		release, ok := s.startRender(w, r)
		if !ok {
			return
		}
		clean, err := imaging.Clean(data)
		release()
		if err != nil {
			writeError(w, http.StatusUnsupportedMediaType, "The image could not be read: it may be damaged")
			return
		}
		data, ct, width, height = clean.Data, clean.ContentType, clean.Width, clean.Height
	}
	b := &store.Blob{
		OwnerID:     ownerOf(u),
		WorkspaceID: workspaceOf(r),
		Kind:        "image",
		FileName:    nameAs(orDefault(form.file.Name, "image"), ct),
		ContentType: ct,
		Data:        data,
		Width:       width,
		Height:      height,
		Title:       limitedText(form.get("imageTitle")),
		Description: limitedText(form.get("imageDescription")),
		CreatedAt:   s.now(),
	}
	if !s.storeBlob(w, r, b, "saving an image") {
		return
	}
	writeJSON(w, http.StatusCreated, map[string]any{
		"id": b.ID, "imageUrl": s.cfg.BaseURL + "/images/" + strconv.FormatInt(b.ID, 10), "fileName": b.FileName,
	})
}

// uploadLogo (POST /api/upload-logo, signed in: logos are premium) stores
// a logo for later generations and saves.
func (s *server) uploadLogo(w http.ResponseWriter, r *http.Request) {
	done, ok := s.holdUpload(w, r)
	if !ok {
		return
	}
	defer done()
	if !s.admitUpload(w, r) {
		return
	}
	form := readMultipart(w, r, "logoFile", maxLogoBytes, logoTooBig)
	if form == nil {
		return
	}
	if form.file == nil {
		writeJSON(w, http.StatusBadRequest, apiError{Message: "Please select an image file", Errors: map[string]string{"logoFile": "Please select an image file"}})
		return
	}
	b, ok := s.saveLogo(w, r, auth.UserFrom(r.Context()), form.file)
	if !ok {
		return
	}
	writeJSON(w, http.StatusCreated, map[string]any{"id": b.ID, "logoUrl": logoPath(b.ID), "fileName": b.FileName})
}

const logoTooBig = "The logo is too large (at most 2 MB)"

// saveLogo checks an uploaded logo and stores it for u, normalised. On
// failure it has answered (415, 413 past the quota, or 500).
func (s *server) saveLogo(w http.ResponseWriter, r *http.Request, u *store.User, f *upload) (*store.Blob, bool) {
	if err := s.normalizeLogo(r.Context(), f); err != nil {
		s.answerRefused(w, r, "reading a logo", err)
		return nil, false
	}
	b := &store.Blob{OwnerID: ownerOf(u), WorkspaceID: workspaceOf(r), Kind: "logo", FileName: nameAs(orDefault(f.Name, "logo"), "image/png"), ContentType: "image/png", Data: f.Data, CreatedAt: s.now()}
	if !s.storeBlob(w, r, b, "saving a logo") {
		return nil, false
	}
	return b, true
}

// normalizeLogo checks a logo file and replaces its data with the PNG the
// renderer keeps (render.NormalizeLogo), decoding it once, in a render
// slot. It fails with a 415 refusal, errBusy, or the renderer's refusal.
func (s *server) normalizeLogo(ctx context.Context, f *upload) error {
	if f.Normalized {
		return nil
	}
	if _, problem := sniffImage(f.Data, maxLogoPixels); problem != "" {
		return &codes.Refused{Status: http.StatusUnsupportedMediaType, Message: problem}
	}
	done, err := s.acquireRender(ctx)
	if err != nil {
		return err
	}
	data, err := render.NormalizeLogo(f.Data)
	done()
	if err != nil {
		return err
	}
	f.Data, f.Normalized = data, true
	return nil
}

// renderLogo returns a stored logo's image for the renderer. A logo stored
// before logos were normalised at upload (larger than the renderer keeps,
// or not a PNG) is normalised on its first use and stored back, so no
// later render decodes the full-size image. Such logos are normalised one
// at a time: the requests that wait then read the stored result. It fails
// with errBusy when no render slot frees up, and with the renderer's
// refusal.
func (s *server) renderLogo(ctx context.Context, b *store.Blob) ([]byte, error) {
	if render.LogoNormalized(b.Data) {
		return b.Data, nil
	}
	s.normalizing.Lock()
	defer s.normalizing.Unlock()
	fresh, err := s.store.Blob(ctx, b.ID)
	if err != nil {
		return nil, err
	}
	if render.LogoNormalized(fresh.Data) {
		b.Data, b.ContentType = fresh.Data, fresh.ContentType
		return b.Data, nil
	}
	done, err := s.acquireRender(ctx)
	if err != nil {
		return nil, err
	}
	data, err := render.NormalizeLogo(b.Data)
	done()
	if err != nil {
		return nil, err
	}
	if err := s.store.ReplaceBlobData(context.WithoutCancel(ctx), b.ID, "image/png", data); err != nil {
		s.log.ErrorContext(ctx, "storing a normalised logo; it is normalised again on its next use", "logo", b.ID, "err", err)
	}
	b.Data, b.ContentType = data, "image/png"
	return data, nil
}

// storeBlob stores b within its owner's storage quota. On failure it has
// answered (413 past the quota, or 500).
func (s *server) storeBlob(w http.ResponseWriter, r *http.Request, b *store.Blob, doing string) bool {
	err := s.store.CreateBlobWithin(r.Context(), b, s.quotaBytes())
	switch {
	case errors.Is(err, store.ErrQuota):
		writeError(w, http.StatusRequestEntityTooLarge, s.quotaMessage(workspaceFrom(r.Context())))
		return false
	case err != nil:
		s.internalError(w, doing, err)
		return false
	}
	return true
}

// logoPath is where a logo is served; saved codes keep it as logoFilePath.
func logoPath(id int64) string { return "/logo/" + strconv.FormatInt(id, 10) }

// logoIDFromPath reads the blob id back from a logoFilePath.
func logoIDFromPath(p string) (int64, bool) {
	rest, ok := strings.CutPrefix(p, "/logo/")
	if !ok {
		return 0, false
	}
	id, err := strconv.ParseInt(rest, 10, 64)
	return id, err == nil && id > 0
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
