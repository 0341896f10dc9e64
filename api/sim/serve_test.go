package sim

import (
	"context"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// Serve answers on a listener, runs the market loop in real time, and stops cleanly.
func TestServe(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := New(WithSeed(5), WithStep(20*time.Millisecond))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	url := "http://" + ln.Addr().String()
	resp, err := http.Post(url+"//info/", "application/json", strings.NewReader(`{"method":"mids","params":{"symbol":"BTC-PERP"}}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("status %d", resp.StatusCode)
	}
	s.mu.Lock()
	first := s.last
	s.mu.Unlock()
	deadline := time.Now().Add(20 * time.Second) // a 20 ms step: only a loop that never steps waits this long
	for {
		s.mu.Lock()
		moved := s.last.After(first)
		s.mu.Unlock()
		if moved {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the market loop did not step")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if resp, err := http.Get(url + "/info"); err == nil {
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("GET: %d", resp.StatusCode)
		}
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve returned %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Serve did not return")
	}
}
