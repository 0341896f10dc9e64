package pagedlist

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/export"
)

// ExportDir is where the console writes exports ("": defaultExportDir). Tests point it at a
// temporary directory.
var ExportDir = ""

// defaultExportDir is $TRADEDESK_EXPORT_DIR, else the user's data directory's tradedesk/exports
// ($XDG_DATA_HOME or ~/.local/share): one known place, not whatever directory the console was
// started in. The notice names the file by its full path.
func defaultExportDir() string {
	if d := os.Getenv("TRADEDESK_EXPORT_DIR"); d != "" {
		return d
	}
	base := os.Getenv("XDG_DATA_HOME")
	if base == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "."
		}
		base = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(base, "tradedesk", "exports")
}

// DefaultExportDir is where exports go when ExportDir is "" (defaultExportDir).
func DefaultExportDir() string { return defaultExportDir() }

// exportPath is the full path of an export file named name, its directory made if need be.
func exportPath(name string) string {
	dir := ExportDir
	if dir == "" {
		dir = defaultExportDir()
	}
	_ = os.MkdirAll(dir, 0o700) // a failure shows when the file is created
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	return filepath.Join(dir, name)
}

// exportJob is one export running in the background: every page of the list, written to a file.
type exportJob struct {
	what   export.What
	format export.Format
	path   string
	events chan tea.Msg
	cancel context.CancelFunc
	done   int
	total  int
}

// exportProgressMsg reports pages fetched; exportDoneMsg ends the job.
type exportProgressMsg struct {
	job         *exportJob
	done, total int
}

type exportDoneMsg struct {
	job *exportJob
	n   int
	err error
}

// startExport begins exporting every page of what for the account: the file is written under a
// temporary name and renamed when complete, so a stopped or failed export leaves no partial file.
func startExport(ex api.Exchange, what export.What, f export.Format, at time.Time) (*exportJob, tea.Cmd) {
	ctx, cancel := context.WithCancel(context.Background())
	job := &exportJob{what: what, format: f, cancel: cancel, events: make(chan tea.Msg, 1),
		path: exportPath(export.FileName(what, f, at))}
	user := ex.Address()
	go func() {
		n, err := writeExport(ctx, ex, user, job)
		job.events <- exportDoneMsg{job: job, n: n, err: err}
		close(job.events)
	}()
	return job, job.wait()
}

func writeExport(ctx context.Context, ex api.Exchange, user string, job *exportJob) (int, error) {
	tmp, err := os.CreateTemp(filepath.Dir(job.path), ".tradedesk-export-*")
	if err != nil {
		return 0, err
	}
	defer os.Remove(tmp.Name()) // after the rename this fails harmlessly
	progress := func(done, total int) {
		msg := exportProgressMsg{job: job, done: done, total: total}
		select { // keep only the latest progress: drop a stale one the UI has not read yet
		case job.events <- msg:
		default:
			select {
			case <-job.events:
			default:
			}
			select {
			case job.events <- msg:
			default:
			}
		}
	}
	n, err := export.Run(ctx, ex, user, job.what, job.format, tmp, progress)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, err
	}
	return n, os.Rename(tmp.Name(), job.path)
}

// wait is the command that delivers the job's next event.
func (j *exportJob) wait() tea.Cmd {
	return func() tea.Msg {
		msg, ok := <-j.events
		if !ok {
			return nil
		}
		return msg
	}
}

// Exporter is the export state a fills or history pane embeds.
type Exporter struct {
	job  *exportJob
	last string // the last export's result, shown until the next
}

// Key handles the export keys; ok reports whether msg was one.
func (e *Exporter) Key(msg tea.KeyMsg, keys *common.KeyMap, ex api.Exchange, what export.What, clock func() time.Time) (tea.Cmd, bool) {
	var f export.Format
	switch {
	case key.Matches(msg, keys.ExportCSV):
		f = export.CSV
	case key.Matches(msg, keys.ExportJSON):
		f = export.JSON
	case key.Matches(msg, keys.ExportStop) && e.job != nil:
		e.job.cancel()
		return nil, true
	default:
		return nil, false
	}
	if e.job != nil {
		return common.Notice(common.LevelWarn, "an export of "+e.job.what.String()+" is running: wait for it or press "+keys.ExportStop.Help().Key+" to stop it"), true
	}
	if ex == nil || ex.Address() == "" {
		return common.Notice(common.LevelWarn, "nothing to export: no account"), true
	}
	var cmd tea.Cmd
	e.job, cmd = startExport(ex, what, f, clock())
	e.last = ""
	return cmd, true
}

// update takes the job's events; it returns the next wait and, at the end, the result notice.
func (e *Exporter) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case exportProgressMsg:
		if msg.job != e.job {
			return nil
		}
		e.job.done, e.job.total = msg.done, msg.total
		return e.job.wait()
	case exportDoneMsg:
		if msg.job != e.job {
			return nil
		}
		job := e.job
		e.job = nil
		if msg.err != nil {
			e.last = "export failed: " + common.PlainError(msg.err)
			return common.Notice(common.LevelError, e.last)
		}
		e.last = fmt.Sprintf("exported %d %s to %s", msg.n, job.what, job.path)
		return common.Notice(common.LevelInfo, e.last)
	}
	return nil
}

// line is the progress line while an export runs ("" otherwise); it names the key that stops it.
func (e *Exporter) line(st *common.Styles, keys *common.KeyMap, w int) string {
	j := e.job
	if j == nil {
		return ""
	}
	text := fmt.Sprintf("exporting %s to %s: ", j.what, filepath.Base(j.path))
	stops := " (" + common.KeyName(keys.ExportStop) + " stops)"
	if j.total <= 0 {
		return st.Accent.On(common.Pad(text+"starting…"+stops, w))
	}
	pct := min(100, j.done*100/max(j.total, 1))
	bar := progressBar(pct, 20)
	return st.Accent.On(common.Pad(fmt.Sprintf("%s%s %d/%d %d%%", text, bar, j.done, j.total, pct)+stops, w))
}

// progressBar draws pct as n cells.
func progressBar(pct, n int) string {
	full := pct * n / 100
	return "[" + strings.Repeat("#", full) + strings.Repeat(".", n-full) + "]"
}

// Running says whether an export is under way.
func (e *Exporter) Running() bool { return e.job != nil }
