package alerts

import "time"

// FromGuard says whether an attached guard evaluates the alerts (on): it delivers them, so the
// console's engine fires none while it is attached, and the view shows when each last fired in
// the guard (fired, by id).
func (m *Model) FromGuard(on bool, fired map[string]time.Time) {
	m.guarded = on
	for id, at := range fired {
		if at.After(m.fired[id]) {
			m.fired[id] = at
		}
	}
}
