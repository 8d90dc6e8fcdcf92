package store_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// scanWrite matches SQL that changes what a scan of a short code resolves
// to: any write to dynamic_qr_codes, and the deletion of a workspace, a
// user or a client; and any write to the GS1 products and lots the
// resolver answers from (issue 38); and any change to a hosted page (issue
// 35), which its codes and /p/{slug} answer with. (Inserts built by insertReturningID
// are matched by their table, scanTable.)
var scanWrite = regexp.MustCompile(`(?is)` +
	`\b(UPDATE\s+dynamic_qr_codes\s+SET|DELETE\s+FROM\s+dynamic_qr_codes|INSERT\s+INTO\s+dynamic_qr_codes)\b|` +
	`\bUPDATE\s+(users|workspaces)\s+SET\b.*\bis_deleted\s*=|` +
	`\bDELETE\s+FROM\s+(users|workspaces|clients)\b|` +
	`\b(UPDATE|DELETE\s+FROM|INSERT\s+INTO)\s+gs1_(products|lots)\b|` +
	`\b(UPDATE\s+pages\s+SET|DELETE\s+FROM\s+pages)\b`)

// scanTable is the table of the codes scans resolve.
const scanTable = "dynamic_qr_codes"

// notScanWrites are the functions whose writes to those tables change
// nothing a scan reads (store.Redirect and the lookups behind it), with why.
var notScanWrites = map[string]string{
	"ClaimLinkChecks": "the link checker's health_checked_at",
	"RecordLinkCheck": "the link check's health columns",
	"RaiseScanDrops":  "drop_alerted_at",
	"TakeLimitedScan": "limit_scans, counted by the scan itself (routing.go)",
	"DeleteDomain":    "domain_id: the printed host, not the redirect (a host's codes are its workspace's)",
	"releaseDomains":  "domain_id of the codes of a deleted workspace's domains",
}

// TestWritesAnnounceRedirects reads the store's source: every exported
// method that reaches a write of what a scan resolves (scanWrite), through
// any chain of the package's functions, must reach it through one that
// announces it (redirectsChanged), so that no caller has to remember to
// drop cached redirects on this instance or the others. A new write path
// that forgets fails here.
func TestWritesAnnounceRedirects(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	type fn struct {
		exported, writes, announces bool
		calls                       []string
	}
	funcs := map[string]*fn{}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			d, ok := decl.(*ast.FuncDecl)
			if !ok || d.Body == nil {
				continue
			}
			info := &fn{exported: d.Name.IsExported() && d.Recv != nil}
			ast.Inspect(d.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.BasicLit:
					if s, err := strconv.Unquote(n.Value); err == nil && n.Kind == token.STRING && scanWrite.MatchString(s) {
						info.writes = true
					}
				case *ast.CallExpr:
					var callee string
					switch f := n.Fun.(type) {
					case *ast.Ident:
						callee = f.Name
					case *ast.SelectorExpr:
						callee = f.Sel.Name
					case *ast.IndexExpr: // a generic function
						if id, ok := f.X.(*ast.Ident); ok {
							callee = id.Name
						}
					}
					if callee == "insertReturningID" && len(n.Args) > 0 {
						if lit, ok := n.Args[0].(*ast.BasicLit); ok && lit.Value == strconv.Quote(scanTable) {
							info.writes = true
						}
					}
					if callee == "redirectsChanged" || callee == "gs1Changed" {
						info.announces = true
					} else if callee != "" {
						info.calls = append(info.calls, callee)
					}
				}
				return true
			})
			// Methods of different types may share a name: the graph joins
			// them, which can only find more paths, never fewer.
			if old, ok := funcs[d.Name.Name]; ok {
				info.exported = info.exported || old.exported
				info.writes = info.writes || old.writes
				info.announces = info.announces && old.announces
				info.calls = append(info.calls, old.calls...)
			}
			funcs[d.Name.Name] = info
		}
	}
	for name := range notScanWrites {
		if f := funcs[name]; f == nil || !f.writes {
			t.Errorf("notScanWrites names %s, which the store no longer has or which writes nothing scanWrite matches", name)
		}
	}

	// unannounced returns a chain from name to a write no function on it
	// announces, or nil.
	memo := map[string][]string{}
	visiting := map[string]bool{}
	var unannounced func(name string) []string
	unannounced = func(name string) []string {
		f := funcs[name]
		if f == nil || f.announces || visiting[name] {
			return nil
		}
		if chain, ok := memo[name]; ok {
			return chain
		}
		visiting[name] = true
		defer delete(visiting, name)
		var chain []string
		if _, exempt := notScanWrites[name]; f.writes && !exempt {
			chain = []string{name}
		}
		for _, c := range f.calls {
			if chain != nil {
				break
			}
			if rest := unannounced(c); rest != nil {
				chain = append([]string{name}, rest...)
			}
		}
		memo[name] = chain
		return chain
	}
	var names []string
	for name, f := range funcs {
		if f.exported {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	checked := 0
	for _, name := range names {
		if chain := unannounced(name); chain != nil {
			t.Errorf("%s changes what scans resolve to without announcing it (redirectsChanged): %s", name, strings.Join(chain, " → "))
		}
		checked++
	}
	// The check must see the writes it guards, or it guards nothing.
	for _, writer := range []string{"updateDynamicIn", "DeleteDynamicCode", "createDynamic", "DeleteWorkspace", "SoftDeleteUser", "leaveTeams", "DeleteClient", "CreateGS1Product", "ChangeGS1Product", "DeleteGS1Product"} {
		if f := funcs[writer]; f == nil || !f.writes {
			t.Errorf("%s is not seen writing what scans resolve", writer)
		}
	}
	if checked < 100 {
		t.Errorf("only %d exported methods checked", checked)
	}
}
