package main

import (
	"context"
	"net/http"
	"regexp"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// Every scan answered before a graceful shutdown is saved: the recorder is
// flushed after the HTTP server stops and before the store closes.
func TestShutdownKeepsEveryScan(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	st, err := store.Open(ctx, "", dir)
	if err != nil {
		t.Fatal(err)
	}
	u := storetest.CreateUser(t, st, "scan@example.com")
	d := storetest.CreateDynamic(t, st, u.ID, "restart1")
	st.Close()

	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	var logs syncBuffer
	done := make(chan int, 1)
	env := envOf(map[string]string{"SQUARELY_ADDR": "127.0.0.1:0", "SQUARELY_DATA_DIR": dir})
	go func() { done <- run(runCtx, nil, env, &logs, &logs) }()
	var m []string
	for deadline := time.Now().Add(10 * time.Second); m == nil; time.Sleep(20 * time.Millisecond) {
		if m = regexp.MustCompile(`msg=listening addr=(\S+)`).FindStringSubmatch(logs.String()); m == nil && time.Now().After(deadline) {
			t.Fatalf("server did not start:\n%s", logs.String())
		}
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	const scans = 2000
	var wg sync.WaitGroup
	var mu sync.Mutex
	answered := 0
	for range 8 {
		wg.Go(func() {
			for range scans / 8 {
				req, _ := http.NewRequest("GET", "http://"+m[1]+"/d/restart1", nil)
				// A phone: Go's own user agent is counted as a bot.
				req.Header.Set("User-Agent", "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1")
				resp, err := client.Do(req)
				if err != nil {
					t.Error(err)
					return
				}
				resp.Body.Close()
				if resp.StatusCode == http.StatusFound {
					mu.Lock()
					answered++
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	stop()
	if code := <-done; code != 0 {
		t.Fatalf("exit %d:\n%s", code, logs.String())
	}

	st, err = store.Open(ctx, "", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	got, err := st.DynamicCode(ctx, u.ID, d.ID)
	if err != nil {
		t.Fatal(err)
	}
	if answered != scans || got.ScanCount != int64(answered) {
		t.Errorf("%d scans answered, %d recorded; want %d\n%s", answered, got.ScanCount, scans, logs.String())
	}
}

// A shutdown under sustained load: scans keep coming while the server is
// told to stop. It stops within its timeout, and every scan it answered
// is saved, on SQLite and on PostgreSQL.
func TestShutdownUnderLoad(t *testing.T) {
	for _, db := range []string{"sqlite", "postgres"} {
		t.Run(db, func(t *testing.T) {
			dir := t.TempDir()
			dsn := ""
			if db == "postgres" {
				dsn = storetest.PostgresURL(t)
			}
			ctx := context.Background()
			st, err := store.Open(ctx, dsn, dir)
			if err != nil {
				t.Fatal(err)
			}
			u := storetest.CreateUser(t, st, "load@example.com")
			d := storetest.CreateDynamic(t, st, u.ID, "loaded01")
			st.Close()

			runCtx, stop := context.WithCancel(ctx)
			defer stop()
			var logs syncBuffer
			done := make(chan int, 1)
			env := envOf(map[string]string{"SQUARELY_ADDR": "127.0.0.1:0", "SQUARELY_DATA_DIR": dir, "DATABASE_URL": dsn})
			go func() { done <- run(runCtx, nil, env, &logs, &logs) }()
			var m []string
			for deadline := time.Now().Add(10 * time.Second); m == nil; time.Sleep(20 * time.Millisecond) {
				if m = regexp.MustCompile(`msg=listening addr=(\S+)`).FindStringSubmatch(logs.String()); m == nil && time.Now().After(deadline) {
					t.Fatalf("server did not start:\n%s", logs.String())
				}
			}
			var answered atomic.Int64
			var wg sync.WaitGroup
			for range 8 {
				wg.Go(func() {
					client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
					for {
						req, _ := http.NewRequest("GET", "http://"+m[1]+"/d/loaded01", nil)
						req.Header.Set("User-Agent", "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1")
						resp, err := client.Do(req)
						if err != nil {
							return // the server has stopped listening
						}
						resp.Body.Close()
						if resp.StatusCode == http.StatusFound {
							answered.Add(1)
						}
					}
				})
			}
			time.Sleep(500 * time.Millisecond)
			stopped := time.Now()
			stop()
			code := <-done
			took := time.Since(stopped)
			wg.Wait()
			if code != 0 || took > shutdownTimeout {
				t.Fatalf("exit %d after %v:\n%s", code, took, logs.String())
			}

			st, err = store.Open(ctx, dsn, dir)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			got, err := st.DynamicCode(ctx, u.ID, d.ID)
			if err != nil {
				t.Fatal(err)
			}
			if n := answered.Load(); n == 0 || got.ScanCount != n {
				t.Errorf("%d scans answered, %d saved\n%s", n, got.ScanCount, logs.String())
			}
			t.Logf("%d scans answered under load, all saved; shutdown took %v", answered.Load(), took)
		})
	}
}
