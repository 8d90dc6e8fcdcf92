package store_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/store/storetest"
)

// Many changed codes at once (a workspace's deletion) are announced in
// notifications under PostgreSQL's payload limit, and every one arrives.
func TestNotifyManyRedirects(t *testing.T) {
	s := storetest.OpenPostgres(t)
	ctx, stop := context.WithCancel(context.Background())
	var done sync.WaitGroup
	t.Cleanup(func() { stop(); done.Wait() })
	var mu sync.Mutex
	heard := map[string]int{}
	done.Go(func() {
		s.ListenRedirects(ctx, func(code string) {
			mu.Lock()
			heard[code]++
			mu.Unlock()
		}, func() {}, func(err error) { t.Log(err) })
	})
	count := func(code string) int {
		mu.Lock()
		defer mu.Unlock()
		return heard[code]
	}
	for deadline := time.Now().Add(5 * time.Second); count("probe") == 0; time.Sleep(20 * time.Millisecond) {
		if err := s.NotifyRedirect(ctx, "probe"); err != nil || time.Now().After(deadline) {
			t.Fatalf("the listener does not hear: %v", err)
		}
	}
	codes := make([]string, 3000) // 27,000 bytes: four notifications
	for i := range codes {
		codes[i] = fmt.Sprintf("c%07d", i)
	}
	if err := s.NotifyRedirect(ctx, codes...); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		missing := 0
		for _, c := range codes {
			if count(c) != 1 {
				missing++
			}
		}
		if missing == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d codes not heard exactly once", missing, len(codes))
		}
	}
}
