package store_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// BenchmarkRecordScans is the recorder's write in make bench-redirect's
// pattern: batches of scans spread over 10,000 codes of one user, from one
// visitor, so nearly every scan of a batch meets a code of its own.
func BenchmarkRecordScans(b *testing.B) {
	for _, db := range []string{"sqlite", "postgres"} {
		b.Run(db, func(b *testing.B) {
			s := storetest.Open(b)
			if db == "postgres" {
				s = storetest.OpenPostgres(b)
			}
			ctx := context.Background()
			user := storetest.CreateUser(b, s, "bench@example.com")
			ids := make([]int64, 10000)
			for i := range ids {
				ids[i] = storetest.CreateDynamic(b, s, user.ID, fmt.Sprintf("b%05d", i)).ID
			}
			batch := s.ScanBatchSize()
			rng := rand.New(rand.NewPCG(1, 2))
			events := make([]store.ScanEvent, batch)
			cpu0 := cpuTime()
			for b.Loop() {
				now := time.Now()
				for i := range events {
					events[i] = store.ScanEvent{
						CodeID: ids[rng.IntN(len(ids))], ScannedAt: now,
						DeviceType: "mobile", OS: "iOS", Browser: "Safari",
						VisitorHash: "0123456789abcdef0123456789abcdef", Country: "DE",
					}
				}
				if err := s.RecordScans(ctx, events); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N*batch), "cpu-ns/scan")
		})
	}
}

// cpuTime is the process's user and system CPU time: what the recorder
// takes from the redirects, which wall time hides behind disk waits.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
