package algos

import (
	"context"
	"fmt"
	"time"

	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state/guard"
)

// Remote is where the console's algorithms run while a guard is attached (a guard.Session):
// they are started and stopped there, and their progress comes from its status.
type Remote interface {
	Start(ctx context.Context, kind string, params any) (string, error)
	StopAlgo(ctx context.Context, id string) error
	Switch(ctx context.Context, id, verb string) error
}

// remoteState is the runner's side of an attached guard: the rows last shown of its algorithms.
type remoteState struct {
	to   Remote
	rows map[string]Row
}

// Attach makes the runner hand its algorithms to x (nil detaches): the view waits on the feed
// while it is attached, for the guard's rows.
func (r *Runner) Attach(x Remote) {
	r.mu.Lock()
	was := r.remote.to
	r.remote = remoteState{to: x, rows: map[string]Row{}}
	r.mu.Unlock()
	switch {
	case was == nil && x != nil:
		r.Feed.Begin()
	case was != nil && x == nil:
		r.Feed.live.Add(-1)
	}
}

// Remote reports whether a guard is attached: new algorithms run there.
func (r *Runner) Remote() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.remote.to != nil
}

// Hand starts algorithm kind (params its journal parameters) in the attached guard and says so.
func (r *Runner) Hand(ctx context.Context, kind string, params any, what string) (string, error) {
	r.mu.Lock()
	to := r.remote.to
	r.mu.Unlock()
	if to == nil {
		return "", fmt.Errorf("the guard is no longer attached: %s not started", what)
	}
	id, err := to.Start(ctx, kind, params)
	if err != nil {
		return "", err
	}
	return kind + " " + text.Clean(id) + " started in the guard: " + what, nil
}

// ReportRemote shows the guard's algorithms: each row that changed since the last report is fed
// to the view, marked as the guard's.
func (r *Runner) ReportRemote(list []guard.Algo) {
	r.mu.Lock()
	if r.remote.to == nil {
		r.mu.Unlock()
		return
	}
	var changed []Row
	for _, a := range list {
		row := Row{Progress: a.Progress, Until: a.Until, Live: a.Progress.Live()}
		row.Detail = joinNote("in the guard", row.Detail)
		if old, ok := r.remote.rows[a.ID]; ok && sameRow(old, row) {
			continue
		}
		r.remote.rows[a.ID] = row
		changed = append(changed, row)
	}
	r.mu.Unlock()
	for _, row := range changed {
		r.Feed.Report(row)
	}
}

func sameRow(a, b Row) bool {
	return a.State == b.State && a.Filled.Equal(b.Filled) && a.Working == b.Working && a.Reprices == b.Reprices &&
		a.Slices == b.Slices && a.Detail == b.Detail && a.Until.Equal(b.Until) && a.Children == b.Children
}

func joinNote(a, b string) string {
	if b == "" {
		return a
	}
	return a + "; " + b
}

// inGuard is the attached guard when it runs algorithm id (nil otherwise).
func (r *Runner) inGuard(id string) Remote {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.remote.rows[id]; ok {
		return r.remote.to
	}
	return nil
}

// stopInGuard asks the guard to stop algorithm id; a refusal reaches the view as the row's detail.
func (r *Runner) stopInGuard(to Remote, id string) {
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := to.StopAlgo(ctx, id); err != nil {
			r.mu.Lock()
			row, ok := r.remote.rows[id]
			r.mu.Unlock()
			if ok {
				row.Detail = joinNote("stop: "+err.Error(), row.Detail)
				r.Feed.Report(row)
			}
		}
	}()
}

// guardRow is the row of an algorithm the guard runs, on :algos resume|cancel: the guard
// settles it, not the console.
func (r *Runner) guardRow(id string) Row {
	r.mu.Lock()
	row := r.remote.rows[id]
	r.mu.Unlock()
	row.Detail = joinNote("runs in the attached guard: "+r.keyName(algoStop)+" stops it there, :algos does not apply", row.Detail)
	return row
}
