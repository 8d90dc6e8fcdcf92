package server

import (
	"net/http"
	"strconv"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/codes"
	"github.com/squarely/squarely/internal/server/publicapi"
	"github.com/squarely/squarely/internal/store"
)

// The app's side of the public API (package publicapi): the API's
// middleware and resources call the app's rules and views through
// v1App, so a code made or changed over the API is checked as in the app.

const (
	kindStatic  = publicapi.Static
	kindDynamic = publicapi.Dynamic
)

// newPublicAPI is /api/v1 on this server.
func (s *server) newPublicAPI() *publicapi.API {
	return publicapi.New(publicapi.Config{
		Store:     s.store,
		RateLimit: s.cfg.APIRateLimit,
		Quota:     s.apiCalls.takeQuota,
		BadKey: func(w http.ResponseWriter, r *http.Request) bool {
			return s.badKeys.take(w, clientKey(r), "Too many invalid API keys. Please try again later.")
		},
		WorkspaceID: wsID,
		// The key acts in its workspace; the audit log names the key.
		Enter: func(r *http.Request, access *store.APIKeyAccess) *http.Request {
			r = r.WithContext(auth.WithUser(r.Context(), access.User))
			return withWorkspace(r, access.Workspace, store.Actor{Type: "api_key", ID: access.KeyID, Email: access.User.Username})
		},
		Fail: s.internalError,
		Log:  s.log,
		Now:  s.now,
		App:  v1App{s},
	})
}

// publicAPI wraps the /api/v1 routes: the client address behind a proxy,
// logging with panic recovery, the Host's white-label client, JSON answers
// for unknown routes.
func (s *server) publicAPI(v1 *http.ServeMux) http.Handler {
	h := frameDenied(apiCSP, gzipJSON(jsonFallback(v1)))
	h = s.withClient(h)
	h = s.logRequests(h)
	if s.cfg.TrustProxy {
		h = forwardedFor(h)
	}
	return h
}

// v1App is the app as the public API's codes resource uses it.
type v1App struct{ s *server }

func (a v1App) SaveStatic(w http.ResponseWriter, r *http.Request, fields map[string]string) (*store.QRCode, bool) {
	return a.s.saveStaticCode(w, r, fields, nil, nil)
}

func (a v1App) SaveDynamic(w http.ResponseWriter, r *http.Request, fields map[string]string) (*store.DynamicCode, bool) {
	return a.s.saveDynamicCode(w, r, fields, nil)
}

func (a v1App) StaticCode(q *store.QRCode) publicapi.Code {
	v := qrCodeJSON(q)
	return publicapi.Code{
		ID: "s_" + strconv.FormatInt(q.ID, 10), Kind: kindStatic, Name: v.Name, QRType: v.QRType, Data: v.Data,
		QRData: v.QRData, Style: v.Style, LogoFilePath: v.LogoFilePath, CreatedAt: v.CreatedAt,
		Tags: v.Tags, FolderID: v.FolderID,
	}
}

func (a v1App) DynamicCode(d *store.DynamicCode) publicapi.Code {
	v := a.s.dynamicJSON(d)
	return publicapi.Code{
		ID: "d_" + strconv.FormatInt(d.ID, 10), Kind: kindDynamic, Name: v.Name, QRType: v.QRType, Data: v.ShortURL,
		QRData: v.QRData, Style: v.Style, LogoFilePath: v.LogoFilePath,
		Destination: v.Destination, ShortCode: v.ShortCode, URL: v.ShortURL,
		ScanCount: v.ScanCount, IsPaused: v.IsPaused, LastScannedAt: v.LastScannedAt, CreatedAt: v.CreatedAt,
		Tags: v.Tags, FolderID: v.FolderID, DomainID: publicapi.IDOrNull(d.DomainID), PageID: publicapi.IDOrNull(d.PageID),
		Routing: publicapi.RoutingOrNull(v.Routing), Health: &v.Health, AlertsMuted: &v.AlertsMuted,
	}
}

func (a v1App) ListCodes(w http.ResponseWriter, r *http.Request) ([]publicapi.Code, *string, bool) {
	return listPage(a.s, w, r, a.StaticCode, a.DynamicCode)
}

// Changes checks what a PATCH needs the app for: the domain is the
// workspace's and verified, and the brand kit's style, drawn once on this
// code, scans (its logo kept as the code's).
func (a v1App) Changes(w http.ResponseWriter, r *http.Request, kind string, id int64, c publicapi.Changes) (store.CodeChanges, bool) {
	s := a.s
	sc := store.CodeChanges{Dynamic: kind == kindDynamic, ID: id, Name: c.Name, Destination: c.Destination, ShortCode: c.ShortCode}
	var ok bool
	if sc.DomainID, sc.SetDomain, ok = readDomainID(w, c.DomainID); !ok {
		return sc, false
	}
	if sc.PageID, sc.SetPage, ok = s.readPageID(w, r, c.PageID); !ok {
		return sc, false
	}
	if sc.PageID != nil && sc.Destination == "" {
		sp, err := s.store.Page(r.Context(), wsID(r), *sc.PageID)
		if err != nil {
			s.internalError(w, "reading a code's page", err)
			return sc, false
		}
		sc.Destination = s.pageURL(sp.Slug)
	}
	if sc.DomainID != nil {
		if _, err := s.codeDomain(r.Context(), wsID(r), *sc.DomainID); answerDomainRefused(w, err) {
			return sc, false
		} else if err != nil {
			s.internalError(w, "reading a domain", err)
			return sc, false
		}
	}
	if c.BrandKit != nil {
		restyle, ok := s.kitRestyle(w, r, kind, *c.BrandKit)
		if !ok {
			return sc, false
		}
		st, ok := s.columns(w, r, restyle)
		if !ok {
			return sc, false
		}
		sc.Style = &st
	}
	return sc, true
}

// kitRestyle is the code of the {id} path value (of kind) styled with the
// workspace's brand kit id, drawn once to check that it scans. On failure
// it has answered.
func (s *server) kitRestyle(w http.ResponseWriter, r *http.Request, kind string, id int64) (*newStyle, bool) {
	var t restyleTarget
	var ok bool
	if kind == kindDynamic {
		_, t, ok = s.dynamicTarget(w, r)
	} else {
		_, t, ok = s.staticTarget(w, r)
	}
	if !ok {
		return nil, false
	}
	k, st, ok := s.workspaceKit(w, r, strconv.FormatInt(id, 10))
	if !ok {
		return nil, false
	}
	ns := &newStyle{style: st, level: t.level}
	return ns, s.drawNewStyle(w, r, t, ns, k.LogoID, codes.PreviewPixels)
}

func (a v1App) SaveRouting(w http.ResponseWriter, r *http.Request) (*store.DynamicCode, bool, error) {
	return a.s.saveRouting(w, r)
}

func (a v1App) DeleteStatic(w http.ResponseWriter, r *http.Request)  { a.s.deleteQRCode(w, r) }
func (a v1App) DeleteDynamic(w http.ResponseWriter, r *http.Request) { a.s.deleteDynamicCode(w, r) }
func (a v1App) StaticImage(w http.ResponseWriter, r *http.Request)   { a.s.qrCodeImage(w, r) }
func (a v1App) DynamicImage(w http.ResponseWriter, r *http.Request)  { a.s.dynamicCodeImage(w, r) }
func (a v1App) Analytics(w http.ResponseWriter, r *http.Request)     { a.s.codeAnalytics(w, r) }
func (a v1App) ScansCSV(w http.ResponseWriter, r *http.Request)      { a.s.scansCSV(w, r) }
