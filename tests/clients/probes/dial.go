// Go's net.Dial, timed in-process after a warm-up dial: the client harness
// (tests/clients/harness.py) runs it as: dial HOST WARMPORT PORT
// and reads one JSON line. Go's resolver and dialParallel (net/dial.go) are
// what is measured; a plain Dialer with the defaults, as net.Dial uses.
package main

import (
	"encoding/json"
	"net"
	"os"
	"runtime"
	"strings"
	"time"
)

func main() {
	if len(os.Args) != 4 {
		os.Stderr.WriteString("usage: dial HOST WARMPORT PORT\n")
		os.Exit(2)
	}
	host, warm, port := os.Args[1], os.Args[2], os.Args[3]
	// The warm-up loads the resolver and the dialer's code paths.
	if c, err := net.Dial("tcp", net.JoinHostPort(host, warm)); err == nil {
		c.Close()
	}
	out := map[string]any{"version": strings.TrimPrefix(runtime.Version(), "go")}
	start := time.Now()
	c, err := net.Dial("tcp", net.JoinHostPort(host, port))
	out["ms"] = float64(time.Since(start).Microseconds()) / 1000
	out["connected"] = err == nil
	if err == nil {
		out["peer"] = c.RemoteAddr().String()
		c.Close()
	} else {
		out["error"] = err.Error()
	}
	json.NewEncoder(os.Stdout).Encode(out)
}
