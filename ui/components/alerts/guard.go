package alerts

import "time"

// FromGuard tells the alerts what an attached guard does with them (on false: no guard is
// attached): the alerts it evaluates (watched, by id) it delivers, so the console fires none of
// them; the view shows when each last fired in the guard (fired, by id).
func (m *Model) FromGuard(on bool, watched map[string]bool, fired map[string]time.Time) {
	m.guarded = nil
	if on {
		m.guarded = watched
	}
	for id, at := range fired {
		if at.After(m.fired[id]) {
			m.fired[id] = at
		}
	}
}
