package ui

// setIntervals changes the cadence, timeout and backoff cap of the root's polls (tests change
// them after New; the console's come from Config.Intervals).
func (m *Model) setIntervals(iv Intervals) {
	m.iv = iv.WithDefaults()
	for _, k := range m.kinds {
		m.feed.Task(k).SetLimits(m.iv.Timeout, m.iv.MaxBackoff)
	}
}
