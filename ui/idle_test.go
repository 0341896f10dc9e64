package ui

import (
	"context"
	"io"
	"net/http/httptest"
	"os"
	"syscall"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/ui/screen"
)

// cpuTime is the CPU time this process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestIdleCPU measures the CPU an idle console uses, streaming and polling, each for 5 s in a
// real tea.Program (drawing on demand as main does, to nowhere) against the simulator with its
// market loop running, in process (the simulator's share is counted too). It reports the figures
// (see README); it asserts nothing about them.
func TestIdleCPU(t *testing.T) {
	measurement(t, "runs the console for 10 s of wall time")
	for _, stream := range idleModes {
		s := fundedSim(t, sim.WithSeed(7))
		srv := httptest.NewServer(s)
		ctx, cancel := context.WithCancel(context.Background())
		go func() { _ = s.Run(ctx) }()
		signer, _ := api.SignerFromHex(testKeyHex)
		cfg := Config{Exchange: api.New(srv.URL+"/", api.WithSigner(signer), api.WithHTTPClient(api.PollingHTTPClient())),
			Keys: mustKeys(t), Theme: testTheme, Mode: ModeDemo, Network: "demo", Instrument: "BTC-PERP"}
		var st *api.Stream
		if stream {
			u, _ := api.StreamURL(srv.URL)
			st = api.NewStream(u)
			cfg.Stream = st
		}
		p := tea.NewProgram(screen.Wrap(New(cfg), screen.NewRenderer(io.Discard, FrameRate)), tea.WithoutRenderer(),
			tea.WithInput(nil), tea.WithContext(ctx))
		done := make(chan struct{})
		go func() { _, _ = p.Run(); close(done) }()
		p.Send(tea.WindowSizeMsg{Width: 200, Height: 60})
		time.Sleep(time.Second) // started: the first polls and the subscriptions are done
		c0, w0 := cpuTime(), time.Now()
		time.Sleep(5 * time.Second)
		used, wall := cpuTime()-c0, time.Since(w0)
		mode := "polling"
		if stream {
			mode = "stream"
		}
		t.Logf("idle console, %s: %.2f%% of a core (%v CPU in %v, simulator and market loop included)",
			mode, 100*used.Seconds()/wall.Seconds(), used.Round(time.Millisecond), wall.Round(time.Millisecond))
		cancel()
		<-done
		if st != nil {
			st.Close()
		}
		srv.Close()
	}
}

var idleModes = []bool{true, false}

// measurement skips a test that only measures (it logs figures and asserts none), unless
// TRADEDESK_MEASURE=1 asks for the figures: the README's Performance section gives the commands.
// The suite stays fast and its result does not depend on the machine's speed.
func measurement(t *testing.T, what string) {
	t.Helper()
	if os.Getenv("TRADEDESK_MEASURE") == "" {
		t.Skip(what + ": a measurement; run it with TRADEDESK_MEASURE=1 (README, Performance)")
	}
}
