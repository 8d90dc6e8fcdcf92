// Command bare is bench/redirect.sh's yardstick: a bare net/http server
// answering the same 302s as squarely's /d/{shortCode}, from a map, with
// nothing else (no cache expiry, no recording, no database).
//
//	bare CODES_FILE     listen on 127.0.0.1 (a free port), print the address
package main

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: bare CODES_FILE")
		os.Exit(2)
	}
	f, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "bare:", err)
		os.Exit(1)
	}
	locations := map[string][]string{}
	sc := bufio.NewScanner(f)
	for i := 1; sc.Scan(); i++ {
		// The same destinations bench/seed gives the codes.
		locations[sc.Text()] = []string{"https://example.com/landing/" + strconv.Itoa(i)}
	}
	f.Close()

	noStore := []string{"no-store"}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /d/{shortCode}", func(w http.ResponseWriter, r *http.Request) {
		loc, ok := locations[r.PathValue("shortCode")]
		w.Header()["Cache-Control"] = noStore
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header()["Location"] = loc
		w.WriteHeader(http.StatusFound)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "bare:", err)
		os.Exit(1)
	}
	fmt.Println(ln.Addr().String())
	http.Serve(ln, mux)
}
