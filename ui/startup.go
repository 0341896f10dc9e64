package ui

import (
	"log/slog"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/state"
)

// processStart is when package ui was initialised, which is before main runs: the program's
// start, to within the runtime's own start-up.
var processStart = time.Now()

// firstFrame wraps the console to time its first live frame: the first View drawn with a size
// and market data (the tickers) in the store.
type firstFrame struct {
	tea.Model
	m     *Model // the model whose frame is timed (a Switcher's first active one)
	start time.Time
	took  time.Duration // zero until the first live frame
	log   func(took time.Duration)
}

// TimeFirstFrame wraps the console so that the time from the program's start to its first live
// frame is logged once, with slog at Info: msg "first live frame", attribute ms. Run the wrapper
// instead of the model (tea.NewProgram(ui.TimeFirstFrame(m))); it behaves as the model otherwise.
// root is a *Model or a *Switcher (its active profile's first frame is timed).
func TimeFirstFrame(root tea.Model) tea.Model {
	m, _ := root.(*Model)
	if sw, ok := root.(*Switcher); ok {
		m = sw.Active()
	}
	return &firstFrame{Model: root, m: m, start: processStart, log: func(took time.Duration) {
		slog.Info("first live frame", "ms", float64(took.Microseconds())/1000, "since", "program start")
	}}
}

// Update implements tea.Model: the wrapper stays the program's model.
func (f *firstFrame) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := f.Model.Update(msg)
	return f, cmd
}

// View implements tea.Model; the first live frame is timed when it has been drawn.
func (f *firstFrame) View() string {
	v := f.Model.View()
	if f.took == 0 && f.live() {
		f.took = max(time.Since(f.start), time.Nanosecond)
		f.log(f.took)
	}
	return v
}

// live reports whether a frame shows live data: the screen has a size and the tickers arrived.
func (f *firstFrame) live() bool {
	return f.m != nil && f.m.width > 0 && f.m.store.Freshness(state.KindTickers).Loaded()
}
