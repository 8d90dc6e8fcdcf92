package imports_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/squarely/squarely/internal/imports"
	"github.com/squarely/squarely/internal/store"
	"github.com/squarely/squarely/internal/store/storetest"
)

// A runner stopped in the middle of a job leaves it to the next one,
// which finishes it; every item's code is made once.
func TestRunnerResumesAfterAStop(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, st, "a@example.com")
		j := &store.ImportJob{WorkspaceID: storetest.Personal(t, st, u.ID), UserID: u.ID, Source: "csv"}
		var items []store.ImportItem
		for i := 1; i <= 7; i++ {
			items = append(items, store.ImportItem{Row: i, ShortCode: fmt.Sprintf("code-%d", i), Destination: "https://example.com", Status: store.ImportPending})
		}
		items[6].Status = store.ImportConflict
		if err := st.CreateImportJob(ctx, j, items, time.Now()); err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		made := map[int]int{}
		first, stop := context.WithCancel(ctx)
		create := func(ctx context.Context, _ *store.ImportJob, it store.ImportItem) (store.ImportItem, error) {
			mu.Lock()
			defer mu.Unlock()
			made[it.Row]++
			if len(made) == 3 {
				stop() // the instance stops after its third code
			}
			it.Status = store.ImportCreated
			return it, nil
		}
		r1 := imports.NewRunner(st, create, nil, nil, nil)
		done1 := make(chan struct{})
		go func() { r1.Run(first); close(done1) }()
		<-done1
		got, err := st.ImportJob(ctx, j.WorkspaceID, j.ID)
		if err != nil || got.Status != store.ImportRunning || got.Counts[store.ImportPending] == 0 {
			t.Fatalf("after the stop: %+v, %v", got, err)
		}
		second, stop2 := context.WithCancel(ctx)
		defer stop2()
		go imports.NewRunner(st, create, nil, nil, nil).Run(second)
		deadline := time.Now().Add(10 * time.Second)
		for got.Status != store.ImportDone {
			if time.Now().After(deadline) {
				t.Fatalf("not finished: %+v", got)
			}
			time.Sleep(20 * time.Millisecond)
			if got, err = st.ImportJob(ctx, j.WorkspaceID, j.ID); err != nil {
				t.Fatal(err)
			}
		}
		mu.Lock()
		defer mu.Unlock()
		for row := 1; row <= 6; row++ {
			// The item in hand at the stop may be made again (its code
			// then proves it, see the server's importLink); none more.
			if made[row] == 0 || made[row] > 2 {
				t.Errorf("row %d made %d times", row, made[row])
			}
		}
		if made[7] != 0 || got.Counts[store.ImportCreated] != 6 || got.Counts[store.ImportConflict] != 1 {
			t.Errorf("counts %v, made %v", got.Counts, made)
		}
	})
}

func TestReadCSV(t *testing.T) {
	links, err := imports.ReadCSV(strings.NewReader("\ufeffShort URL,Long URL,Title,Tags,Created At,Total Clicks\n"+
		"https://go.brand.com/menu?x=1,https://example.com/m,Menu,\"a, b\",2024-01-02,\"1,234\"\n\n,,,,,\n"), "bitly-csv")
	if err != nil || len(links) != 1 {
		t.Fatalf("%v, %v", links, err)
	}
	l := links[0]
	if l.ShortCode != "menu" || l.Destination != "https://example.com/m" || l.Title != "Menu" || len(l.Tags) != 2 || l.Clicks != 1234 || l.CreatedAt == nil {
		t.Errorf("%+v", l)
	}
	for _, bad := range []string{
		"", "a,b\n1,2\n", "destination\n-cmd\n", "destination\n+1+1\n", "destination\n\"\tx\"\n",
		"destination\n" + strings.Repeat("x", imports.MaxLine+1) + "\n", "destination\n\"unterminated\n",
		"destination,title\nhttps://example.com,a\xffb\n", "destination,title\nhttps://example.com,a\x00b\n",
	} {
		var rf *imports.Refused
		if _, err := imports.ReadCSV(strings.NewReader(bad), "csv"); !errors.As(err, &rf) {
			t.Errorf("%.40q: %v, want a refusal", bad, err)
		}
	}
	if links, err := imports.ReadCSV(strings.NewReader("destination,clicks\nhttps://example.com,-1\n"), "csv"); err != nil || len(links) != 1 {
		t.Errorf("a negative number is no formula: %v, %v", links, err)
	}
}

// A formula behind leading white space is a formula: the cell is trimmed
// when read, and was imported starting with = (" =1+1", "\n=1+1").
func TestReadCSVFormulaAfterSpace(t *testing.T) {
	for _, bad := range []string{
		"destination,title\nhttps://example.com, =1+1\n",
		"destination,title\nhttps://example.com,\"\n=HYPERLINK(\"\"https://evil.example\"\")\"\n",
		"destination,title\nhttps://example.com,\"\r\n@SUM(A1)\"\n",
		"destination,tags\nhttps://example.com,  +cmd\n",
		"destination,title\nhttps://example.com, -cmd\n",
	} {
		var rf *imports.Refused
		if links, err := imports.ReadCSV(strings.NewReader(bad), "csv"); !errors.As(err, &rf) {
			t.Errorf("%q: %+v, %v, want a refusal", bad, links, err)
		}
	}
	if links, err := imports.ReadCSV(strings.NewReader("destination,clicks,title\nhttps://example.com, -1 , a = b\n"), "csv"); err != nil || len(links) != 1 {
		t.Errorf("a negative number and an = inside are no formula: %v, %v", links, err)
	}
}

// A link a service answered with a NUL (JSON can carry one) or bytes that
// are not UTF-8 is refused, its text made storable so the import can say
// so; a clean link is left as it is.
func TestLinkClean(t *testing.T) {
	clean := imports.Link{ShortCode: "menu", Destination: "https://example.com/m", Title: "Menü", Tags: []string{"a"}}
	if problem := clean.Clean(); problem != "" || clean.Title != "Menü" {
		t.Errorf("a clean link: %q, %+v", problem, clean)
	}
	for _, l := range []imports.Link{
		{Destination: "https://example.com/m", Title: "ti\x00tle"},
		{Destination: "https://exa\xffmple.com/m"},
		{Destination: "https://example.com/m", Tags: []string{"ok", "t\x00g"}},
		{Destination: "https://example.com/m", ShortCode: "a\xc3"},
	} {
		before := fmt.Sprintf("%+v", l)
		if problem := l.Clean(); problem != imports.MsgNotText {
			t.Errorf("%s: %q, want %q", before, problem, imports.MsgNotText)
		}
		if again := l.Clean(); again != "" {
			t.Errorf("%s cleaned is still refused: %+v", before, l)
		}
	}
}

// A switch check stopped with its instance is taken over by another
// runner once the first releases it, and finishes: every link checked,
// none lost; a second start while one is queued is refused.
func TestSwitchCheckResumesAfterAStop(t *testing.T) {
	storetest.OpenEach(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		u := storetest.CreateUser(t, st, "a@example.com")
		j := &store.ImportJob{WorkspaceID: storetest.Personal(t, st, u.ID), UserID: u.ID, Source: "csv", OldBaseURL: "https://old.example"}
		var items []store.ImportItem
		for i := 1; i <= 9; i++ {
			items = append(items, store.ImportItem{Row: i, ShortCode: fmt.Sprintf("code-%d", i), Destination: "https://example.com", Status: store.ImportExists})
		}
		items[7].Status = store.ImportConflict // not checked: never imported
		items[8].ShortCode = ""                // not checked: no old short URL
		if err := st.CreateImportJob(ctx, j, items, time.Now()); err != nil {
			t.Fatal(err)
		}
		if err := st.StartImportCheck(ctx, j.ID); err != nil {
			t.Fatal(err)
		}
		if err := st.StartImportCheck(ctx, j.ID); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("a second start: %v, want ErrConflict", err)
		}
		var mu sync.Mutex
		checked := map[int]int{}
		first, stop := context.WithCancel(ctx)
		check := func(ctx context.Context, _ *store.ImportJob, it store.ImportItem) (store.ImportCheck, error) {
			mu.Lock()
			checked[it.Row]++
			stopping := len(checked) == 3 && first.Err() == nil
			mu.Unlock()
			if stopping {
				stop() // the instance stops during its third link
				return store.ImportCheck{}, ctx.Err()
			}
			return store.ImportCheck{Row: it.Row, ShortCode: it.ShortCode, Same: it.Row != 2, Old: "301 x", New: "302 x"}, nil
		}
		r1 := imports.NewRunner(st, nil, check, nil, nil)
		done1 := make(chan struct{})
		go func() { r1.Run(first); close(done1) }()
		<-done1
		got, err := st.ImportJob(ctx, j.WorkspaceID, j.ID)
		if err != nil || got.CheckStatus != store.CheckRunning {
			t.Fatalf("after the stop: %+v, %v", got, err)
		}
		if n, _, _, _ := st.ImportChecks(ctx, j.ID, 10); n != 2 {
			t.Fatalf("%d links checked before the stop, want 2", n)
		}
		second, stop2 := context.WithCancel(ctx)
		defer stop2()
		go imports.NewRunner(st, nil, check, nil, nil).Run(second)
		deadline := time.Now().Add(10 * time.Second)
		for got.CheckStatus != store.CheckDone {
			if time.Now().After(deadline) {
				t.Fatalf("not finished: %+v", got)
			}
			time.Sleep(20 * time.Millisecond)
			if got, err = st.ImportJob(ctx, j.WorkspaceID, j.ID); err != nil {
				t.Fatal(err)
			}
		}
		n, same, different, err := st.ImportChecks(ctx, j.ID, 10)
		if err != nil || n != 7 || same != 6 || len(different) != 1 || different[0].ShortCode != "code-2" {
			t.Errorf("checked %d, same %d, different %+v, %v", n, same, different, err)
		}
		mu.Lock()
		defer mu.Unlock()
		for row := 1; row <= 7; row++ {
			if checked[row] == 0 || checked[row] > 2 {
				t.Errorf("row %d checked %d times", row, checked[row])
			}
		}
		if checked[8]+checked[9] != 0 {
			t.Errorf("links not to check were: %v", checked)
		}
	})
}

// A tag of the tags cell that a spreadsheet would run as a formula
// refuses the file as such a cell does, naming the row, column and tag
// ("a,+cmd" made the tag "+cmd", written alone into exported cells);
// "a,-1" and "a, b=c" are no formula.
func TestReadCSVFormulaTag(t *testing.T) {
	for _, c := range []struct{ csv, tag string }{
		{"destination,tags\nhttps://example.com,\"a,+cmd\"\n", `"+cmd"`},
		{"destination,tags\nhttps://example.com,\"a, =1+2\"\n", `"=1+2"`},
		{"title,tags,destination\nx,a;@SUM(A1),https://example.com\n", `"@SUM(A1)"`},
		{"destination,tags\nhttps://example.com,a| -cmd\n", `"-cmd"`},
	} {
		var rf *imports.Refused
		links, err := imports.ReadCSV(strings.NewReader(c.csv), "csv")
		if !errors.As(err, &rf) || !strings.Contains(err.Error(), "Row 2, column") || !strings.Contains(err.Error(), c.tag) {
			t.Errorf("%q: %+v, %v, want a refusal naming row 2 and the tag %s", c.csv, links, err, c.tag)
		}
	}
	links, err := imports.ReadCSV(strings.NewReader("destination,tags\nhttps://example.com,\"a,-1, b=c\"\n"), "csv")
	if err != nil || len(links) != 1 || strings.Join(links[0].Tags, "|") != "a|-1|b=c" {
		t.Errorf("no formula: %+v, %v", links, err)
	}
}
