package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

func TestClientsByHostAndKeys(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Now()
		c := &store.Client{Name: "Acme", CustomDomain: "qr.acme.test", Subdomain: "acme", PrimaryColor: "#112233", SecondaryColor: "#445566"}
		if err := s.CreateClient(ctx, c, now); err != nil {
			t.Fatal(err)
		}
		dup := &store.Client{Name: "Other", Subdomain: "acme", PrimaryColor: "#000000", SecondaryColor: "#000000"}
		if err := s.CreateClient(ctx, dup, now); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("duplicate subdomain: %v, want ErrConflict", err)
		}
		for _, host := range []string{"qr.acme.test", "QR.ACME.test", "acme.squarely.test"} {
			got, err := s.ActiveClientByHost(ctx, host, "squarely.test")
			if err != nil || got.ID != c.ID {
				t.Errorf("host %s: %+v, %v; want client %d", host, got, err, c.ID)
			}
		}
		for _, host := range []string{"squarely.test", "x.acme.squarely.test", "acme.other.test", "unknown.test"} {
			if _, err := s.ActiveClientByHost(ctx, host, "squarely.test"); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("host %s: %v, want ErrNotFound", host, err)
			}
		}

		// A client's key acts as its own account, until the key is rotated
		// or the client made inactive.
		if _, err := s.APIKeyAccess(ctx, "none:1"); err == nil {
			t.Error("the default client's marker works as a key")
		}
		if _, err := s.SetClientKey(ctx, c.ID, store.KeyParts{Hash: "h1", Prefix: "sq_abcdef", Last4: "wxyz"}, now); err != nil {
			t.Fatal(err)
		}
		a, err := s.APIKeyAccess(ctx, "h1")
		if err != nil || a.User.ClientID != c.ID || a.Workspace.ClientID != c.ID {
			t.Fatalf("client key access = %+v, %v", a, err)
		}
		u := a.User
		if err != nil || u.ClientID != c.ID {
			t.Fatalf("client key user = %+v, %v", u, err)
		}
		got, err := s.SetClientKey(ctx, c.ID, store.KeyParts{Hash: "h2", Prefix: "sq_ghijkl", Last4: "abcd"}, now)
		if err != nil || got.APIKeyPrefix != "sq_ghijkl" || got.APIKeyLast4 != "abcd" {
			t.Fatalf("rotate = %+v, %v", got, err)
		}
		if _, err := s.APIKeyAccess(ctx, "h1"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("rotated key: %v, want ErrNotFound", err)
		}
		if a2, err := s.APIKeyAccess(ctx, "h2"); err != nil || a2.User.ID != u.ID {
			t.Errorf("new key acts as %+v, %v; want the same account %d", a2, err, u.ID)
		}
		c.IsActive = false
		if _, err := s.UpdateClient(ctx, c, now); err != nil {
			t.Fatal(err)
		}
		if _, err := s.APIKeyAccess(ctx, "h2"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("inactive client's key: %v, want ErrNotFound", err)
		}
		if _, err := s.ActiveClientByHost(ctx, "qr.acme.test", "squarely.test"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("inactive client by host: %v, want ErrNotFound", err)
		}

		if err := s.DeleteClient(ctx, store.DefaultClientID, now); !errors.Is(err, store.ErrDefaultClient) {
			t.Errorf("delete client 1: %v", err)
		}
		member := storetest.CreateUser(t, s, "member@example.com")
		if _, err := s.User(ctx, member.ID); err != nil {
			t.Fatal(err)
		}
		if err := s.DeleteClient(ctx, c.ID, now); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Client(ctx, c.ID); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("deleted client: %v", err)
		}
		if acct, err := s.User(ctx, u.ID); err != nil || !acct.IsDeleted || acct.ClientID != store.DefaultClientID {
			t.Errorf("client account after delete = %+v, %v", acct, err)
		}
	})
}

func TestAPIKeysAndIdempotency(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Now()
		alice := storetest.CreateUser(t, s, "alice@example.com")
		bob := storetest.CreateUser(t, s, "bob@example.com")
		k := &store.APIKey{WorkspaceID: storetest.Personal(t, s, alice.ID), UserID: alice.ID, Name: "shop", Prefix: "sq_aaaaaa", Last4: "1234"}
		if err := s.CreateAPIKey(ctx, k, "hash-a", 20, now); err != nil {
			t.Fatal(err)
		}
		if a, err := s.APIKeyAccess(ctx, "hash-a"); err != nil || a.User.ID != alice.ID || a.Workspace.ID != k.WorkspaceID {
			t.Fatalf("APIKeyAccess = %+v, %v", a, err)
		}
		if list, err := s.APIKeys(ctx, bob.ID); err != nil || len(list) != 0 {
			t.Errorf("bob's keys = %v, %v", list, err)
		}
		if err := s.DeleteAPIKey(ctx, bob.ID, k.ID); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("bob revokes alice's key: %v", err)
		}
		if err := s.DeleteAPIKey(ctx, alice.ID, k.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := s.APIKeyAccess(ctx, "hash-a"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("revoked key: %v", err)
		}

		if a, err := s.BeginIdempotent(ctx, "hash-a", "k1", "r1", now, time.Hour); a != nil || err != nil {
			t.Fatalf("first claim = %+v, %v", a, err)
		}
		if a, err := s.BeginIdempotent(ctx, "hash-a", "k1", "r1", now, time.Hour); err != nil || a == nil || a.Status != 0 {
			t.Fatalf("claim while running = %+v, %v", a, err)
		}
		if err := s.FinishIdempotent(ctx, "hash-a", "k1", 201, `{"id":1}`); err != nil {
			t.Fatal(err)
		}
		if a, err := s.BeginIdempotent(ctx, "hash-a", "k1", "r1", now, time.Hour); err != nil || a.Status != 201 || a.Body != `{"id":1}` {
			t.Fatalf("replay = %+v, %v", a, err)
		}
		if a, err := s.BeginIdempotent(ctx, "hash-b", "k1", "r1", now, time.Hour); a != nil || err != nil {
			t.Fatalf("another key's claim = %+v, %v", a, err)
		}
		// A claim never answered (its instance died) is released after a while.
		if a, err := s.BeginIdempotent(ctx, "hash-a", "stalled", "r1", now, time.Hour); a != nil || err != nil {
			t.Fatalf("claim = %+v, %v", a, err)
		}
		if a, err := s.BeginIdempotent(ctx, "hash-a", "stalled", "r1", now.Add(time.Minute), time.Hour); a == nil || a.Status != 0 || err != nil {
			t.Fatalf("claim a minute later = %+v, %v; want the running claim", a, err)
		}
		if a, err := s.BeginIdempotent(ctx, "hash-a", "stalled", "r1", now.Add(10*time.Minute), time.Hour); a != nil || err != nil {
			t.Fatalf("claim after a stall = %+v, %v; want a new claim", a, err)
		}
		if a, err := s.BeginIdempotent(ctx, "hash-a", "k1", "r1", now.Add(2*time.Hour), time.Hour); a != nil || err != nil {
			t.Fatalf("claim after expiry = %+v, %v", a, err)
		}
	})
}
