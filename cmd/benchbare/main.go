// Command benchbare is the yardstick of `make bench`: the smallest Go HTTP
// server, answering 204 to everything, in a process of its own. The
// benchmarks report the members server's requests per second as a ratio
// to this one's, both loaded the same way by wrk from outside.
package main

import (
	"fmt"
	"net"
	"net/http"
	"os"
)

func main() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchbare:", err)
		os.Exit(1)
	}
	fmt.Println(ln.Addr().String())
	// #nosec G114 -- a benchmark's yardstick on loopback, stopped by its parent
	err = http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	fmt.Fprintln(os.Stderr, "benchbare:", err)
	os.Exit(1)
}
