package store_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// BenchmarkRecordScans is the recorder's write in make bench-redirect's
// pattern: batches of scans spread over 10,000 codes of one user, from one
// visitor, so nearly every scan of a batch meets a code of its own. On
// PostgreSQL the database does most of the work in its own processes, which
// cpu-ns/scan (this process) leaves out: machine-cpu-ns/scan counts every
// process's, on a machine with nothing else running.
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
			cpu0, machine0 := cpuTime(), machineCPUTime()
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
			b.ReportMetric(float64((machineCPUTime()-machine0).Nanoseconds())/float64(b.N*batch), "machine-cpu-ns/scan")
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

// machineCPUTime is the CPU time all processes have used since boot: the
// first line of /proc/stat less its idle and iowait, in clock ticks of 1/100
// s (Linux's USER_HZ). 0 where there is no /proc/stat.
func machineCPUTime() time.Duration {
	data, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0
	}
	line, _, _ := strings.Cut(string(data), "\n")
	var ticks int64
	for i, field := range strings.Fields(line)[1:] {
		if i == 3 || i == 4 { // idle, iowait
			continue
		}
		n, _ := strconv.ParseInt(field, 10, 64)
		ticks += n
	}
	return time.Duration(ticks) * 10 * time.Millisecond
}
