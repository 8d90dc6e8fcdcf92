package jobs

import (
	"context"
	"errors"
	"log/slog"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/store"
)

func TestLoopRunsAtOnceOnWakeAndOnPoll(t *testing.T) {
	for _, tc := range []struct {
		name string
		poll time.Duration
		wake bool
	}{{"wake", time.Hour, true}, {"poll", 20 * time.Millisecond, false}} {
		t.Run(tc.name, func(t *testing.T) {
			l := NewLoop(tc.poll)
			ctx, cancel := context.WithCancel(context.Background())
			passes := make(chan struct{})
			done := make(chan struct{})
			go func() {
				l.Run(ctx, func(context.Context) { passes <- struct{}{} })
				close(done)
			}()
			for i := range 2 {
				if i > 0 && tc.wake {
					l.Wake()
				}
				select {
				case <-passes:
				case <-time.After(5 * time.Second):
					t.Fatalf("pass %d did not come", i+1)
				}
			}
			cancel()
			select {
			case <-done:
			case <-passes:
				t.Fatal("a pass ran after the context ended")
			case <-time.After(5 * time.Second):
				t.Fatal("Run did not return after the context ended")
			}
		})
	}
}

// TestLoopShutdownWaitsForThePass: a pass under way when the context ends
// finishes before Run returns, and no pass follows it.
func TestLoopShutdownWaitsForThePass(t *testing.T) {
	l := NewLoop(time.Millisecond)
	ctx, cancel := context.WithCancel(context.Background())
	passes, finished := 0, false
	done := make(chan struct{})
	go func() {
		l.Run(ctx, func(ctx context.Context) {
			passes++
			cancel()
			time.Sleep(50 * time.Millisecond) // the job in hand, finishing
			finished = true
		})
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return")
	}
	if passes != 1 || !finished {
		t.Errorf("passes = %d, finished = %t; want 1 finished pass", passes, finished)
	}
}

func TestDrain(t *testing.T) {
	queue := func(n int) func(context.Context) (int, error) {
		next := 0
		return func(ctx context.Context) (int, error) {
			if ctx.Err() != nil {
				t.Error("a claim ran with a cancelled context")
			}
			if next == n {
				return 0, store.ErrNotFound
			}
			next++
			return next, nil
		}
	}
	t.Run("until none", func(t *testing.T) {
		var ran []int
		err := Drain(context.Background(), queue(3), func(j int) error { ran = append(ran, j); return nil })
		if err != nil || len(ran) != 3 {
			t.Errorf("ran %v, err %v; want 3 jobs, no error", ran, err)
		}
	})
	t.Run("run fails", func(t *testing.T) {
		broken := errors.New("broken")
		ran := 0
		err := Drain(context.Background(), queue(3), func(int) error { ran++; return broken })
		if !errors.Is(err, broken) || ran != 1 {
			t.Errorf("ran %d, err %v; want 1 job and the error", ran, err)
		}
	})
	t.Run("claim fails", func(t *testing.T) {
		broken := errors.New("database gone")
		err := Drain(context.Background(), func(context.Context) (int, error) { return 0, broken }, func(int) error {
			t.Error("ran a job that was not claimed")
			return nil
		})
		if !errors.Is(err, broken) {
			t.Errorf("err = %v, want the claim's", err)
		}
	})
	t.Run("shutdown", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		ran := 0
		err := Drain(ctx, queue(3), func(int) error { ran++; cancel(); return nil })
		if err != nil || ran != 1 {
			t.Errorf("ran %d, err %v; want the job in hand only", ran, err)
		}
	})
}

func TestDrainBatches(t *testing.T) {
	for _, tc := range []struct {
		name         string
		jobs, size   int
		claims, runs int
	}{
		{"none", 0, 3, 1, 0},
		{"a short batch ends it", 5, 3, 2, 2},
		{"full batches claim once more", 6, 3, 3, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			left, claims, runs := tc.jobs, 0, 0
			err := DrainBatches(context.Background(), tc.size, func(context.Context) ([]int, error) {
				claims++
				n := min(left, tc.size)
				left -= n
				return make([]int, n), nil
			}, func(batch []int) error {
				if len(batch) == 0 {
					t.Error("ran an empty batch")
				}
				runs++
				return nil
			})
			if err != nil || claims != tc.claims || runs != tc.runs || left != 0 {
				t.Errorf("claims %d, runs %d, left %d, err %v; want %d claims, %d runs, none left", claims, runs, left, err, tc.claims, tc.runs)
			}
		})
	}
}

func TestLeaseRenewsAfterAThird(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	l := NewLease(3*time.Minute, start)
	renewals := 0
	renew := func() error { renewals++; return nil }
	for _, step := range []struct {
		at   time.Duration
		want int
	}{{30 * time.Second, 0}, {time.Minute, 0}, {61 * time.Second, 1}, {90 * time.Second, 1}, {121 * time.Second, 1}, {122 * time.Second, 2}} {
		if err := l.Keep(start.Add(step.at), renew); err != nil {
			t.Fatal(err)
		}
		if renewals != step.want {
			t.Errorf("at %v: %d renewals, want %d", step.at, renewals, step.want)
		}
	}
	lost := errors.New("lease taken")
	if err := l.Keep(start.Add(10*time.Minute), func() error { return lost }); !errors.Is(err, lost) {
		t.Errorf("Keep = %v, want the renewal's error", err)
	}
	// A failed renewal is tried again at the next Keep.
	if err := l.Keep(start.Add(10*time.Minute+time.Second), renew); err != nil || renewals != 3 {
		t.Errorf("after a failed renewal: err %v, %d renewals; want a retry", err, renewals)
	}
}

// RunBatches steps until done and then finishes; retries a failed step
// after the pause; stops without finishing when the job was taken over;
// and releases the job when its context ends.
func TestRunBatches(t *testing.T) {
	log := slog.New(slog.DiscardHandler)
	var steps, released, finished int
	reset := func() { steps, released, finished = 0, 0, 0 }
	release := func(ctx context.Context) error {
		if ctx.Err() != nil {
			t.Error("release got an ended context")
		}
		released++
		return nil
	}
	finish := func() { finished++ }

	RunBatches(context.Background(), log, time.Millisecond, func(context.Context) (bool, error) {
		steps++
		switch steps {
		case 2:
			return false, errors.New("the database hiccuped")
		case 4:
			return true, nil
		}
		return false, nil
	}, release, finish)
	if steps != 4 || finished != 1 || released != 0 {
		t.Errorf("to the end: %d steps, %d finished, %d released", steps, finished, released)
	}

	reset()
	RunBatches(context.Background(), log, time.Millisecond, func(context.Context) (bool, error) {
		steps++
		return false, store.ErrItemTaken
	}, release, finish)
	if steps != 1 || finished != 0 || released != 0 {
		t.Errorf("taken over: %d steps, %d finished, %d released", steps, finished, released)
	}

	reset()
	ctx, stop := context.WithCancel(context.Background())
	RunBatches(ctx, log, time.Hour, func(context.Context) (bool, error) {
		steps++
		if steps == 2 {
			stop()
			return false, errors.New("stopped mid-step")
		}
		return false, nil
	}, release, finish)
	if steps != 2 || finished != 0 || released != 1 {
		t.Errorf("stopped: %d steps, %d finished, %d released", steps, finished, released)
	}
}
