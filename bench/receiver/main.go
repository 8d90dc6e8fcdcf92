// Command receiver is bench/redirect.sh's webhook endpoint (BENCH_WEBHOOK=1):
// it answers every POST 204 and counts the scan.created batches and the
// scans in them; on SIGTERM it prints the counts.
//
//	receiver     listen on 127.0.0.1 (a free port), print the address
package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
)

func main() {
	var batches, scans atomic.Int64
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "receiver:", err)
		os.Exit(1)
	}
	fmt.Println(ln.Addr().String())
	go http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Type string
			Data struct{ Scans []json.RawMessage }
		}
		if json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(&body) == nil && body.Type == "scan.created" {
			batches.Add(1)
			scans.Add(int64(len(body.Data.Scans)))
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, os.Interrupt)
	<-stop
	fmt.Printf("receiver: batches=%d scans=%d\n", batches.Load(), scans.Load())
}
