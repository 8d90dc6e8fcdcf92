package server

import (
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/squarely/squarely/internal/config"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// Making workspaces makes no room on the free plan (issue 32): the dynamic
// limit is the owner's across their workspaces without a subscription,
// also under parallel creations split between two of them, and the trial
// status counts it so.
func TestFreeLimitAcrossWorkspaces(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		e := start(t, st, withConfig(func(c *config.Config) { c.DynamicLimit = 3 }))
		owner, ownerID := e.signedIn("owner@example.com")
		var keys [2]string
		for i := range keys {
			ws := expect(t, e.do(owner, "POST", "/api/workspaces", fmt.Sprintf(`{"name":"Shop %d"}`, i)), http.StatusCreated, "")
			expect(t, e.do(owner, "POST", fmt.Sprintf("/api/workspaces/%v/activate", ws["id"]), ""), http.StatusOK, "")
			keys[i], _ = e.newKey(owner, "shop")
		}
		const tries = 20
		var wg sync.WaitGroup
		statuses := make([]*response, tries)
		for i := range tries {
			wg.Go(func() {
				statuses[i] = e.api(keys[i%2], "POST", "/api/v1/codes", fmt.Sprintf(`{"kind":"dynamic","qrType":"url","destination":"https://example.com/%d"}`, i))
			})
		}
		wg.Wait()
		created := 0
		for _, r := range statuses {
			switch r.StatusCode {
			case http.StatusCreated:
				created++
			default:
				expect(t, r, http.StatusForbidden, "You have reached your limit of 3 dynamic QR codes. Please upgrade to create more."+msgFreeShared)
			}
		}
		if created != 3 {
			t.Fatalf("%d dynamic codes created across the owner's two workspaces, want 3", created)
		}
		// The personal workspace is full too, and says so.
		expect(t, e.do(owner, "POST", "/api/workspaces/"+fmt.Sprint(storetest.Personal(t, st, ownerID))+"/activate", ""), http.StatusOK, "")
		status := expect(t, e.do(owner, "GET", "/api/trial-status", ""), http.StatusOK, "")
		if status["dynamicQRUsed"] != float64(3) || status["canCreateDynamicQR"] != false {
			t.Errorf("trial status of the personal workspace = %v", status)
		}
		expect(t, e.postForm(owner, "/api/dynamic-qrcodes", part{"destination", "https://example.com/p", ""}), http.StatusForbidden,
			"You have reached your limit of 3 dynamic QR codes. Please upgrade to create more."+msgFreeShared)
	})
}

// Creating workspaces is rate-limited per account and per client address
// (SQUARELY_WORKSPACE_RATE_LIMIT): of 20 parallel requests of one account
// exactly the limit pass, and the address stops at three times it.
func TestWorkspaceCreationRateLimit(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		const limit, tries = 2, 20
		e := start(t, st, withConfig(func(c *config.Config) { c.WorkspaceRateLimit = limit }))
		first, _ := e.signedIn("first@example.com")
		expect(t, e.do(first, "POST", "/api/workspaces", `{"name":""}`), http.StatusBadRequest, "Name is required")
		var wg sync.WaitGroup
		answers := make([]*response, tries)
		for i := range tries {
			wg.Go(func() { answers[i] = e.do(first, "POST", "/api/workspaces", fmt.Sprintf(`{"name":"W%d"}`, i)) })
		}
		wg.Wait()
		created := 0
		for _, r := range answers {
			if r.StatusCode == http.StatusCreated {
				created++
				continue
			}
			expect(t, r, http.StatusTooManyRequests, msgTooManyWorkspaces)
			if r.Header.Get("Retry-After") == "" {
				t.Error("429 without Retry-After")
			}
		}
		if created != limit {
			t.Fatalf("%d of %d parallel creations passed, want %d", created, tries, limit)
		}
		// Two more accounts fill the address's 3 × limit; a fourth is refused.
		for _, email := range []string{"second@example.com", "third@example.com"} {
			c, _ := e.signedIn(email)
			for range limit {
				expect(t, e.do(c, "POST", "/api/workspaces", `{"name":"Team"}`), http.StatusCreated, "")
			}
		}
		fourth, _ := e.signedIn("fourth@example.com")
		expect(t, e.do(fourth, "POST", "/api/workspaces", `{"name":"Team"}`), http.StatusTooManyRequests, msgTooManyWorkspaces)
		var teams int
		storetest.QueryRow(t, st, `SELECT count(*) FROM workspaces WHERE personal_user_id IS NULL`, nil, &teams)
		if teams != 3*limit {
			t.Errorf("%d team workspaces, want %d", teams, 3*limit)
		}
	})
}
