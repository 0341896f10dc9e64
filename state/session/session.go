// Package session is the console's several accounts at once (issue #42): one session per config
// profile (its exchange client, store, feed, executor and journal live in the front end that
// opened it), which of them is active, and the combined read-only summary of them all (Total,
// Nets). A front end switches the active session here; what a session opened (a dialog, an
// order in flight) stays with it, whichever is active.
package session

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tradedesk/tradedesk/api/text"
)

// Set is the sessions of one console, by profile name, in the config's order, and the active one.
// The zero Set has none.
type Set struct {
	names  []string
	active int
}

// TopLevel is the name a Set gives the config's top level when the console runs it (no
// --profile): the settings outside every [profile.NAME] table.
const TopLevel = ""

// NewSet is the sessions named, the first active. A name appears once.
func NewSet(names ...string) (*Set, error) {
	if len(names) == 0 {
		return nil, errors.New("sessions: no profile to open")
	}
	for i, n := range names {
		if slices.Contains(names[:i], n) {
			return nil, fmt.Errorf("sessions: profile %s is listed twice", text.Quote(Label(n)))
		}
	}
	return &Set{names: slices.Clone(names)}, nil
}

// Label is how a profile is named on screen: its name, or "top level" for the config's top level.
func Label(name string) string {
	if name == TopLevel {
		return "top level"
	}
	return name
}

// Names are the profiles, in order.
func (s *Set) Names() []string { return slices.Clone(s.names) }

// Active is the active profile's name.
func (s *Set) Active() string { return s.names[s.active] }

// Switch makes name the active profile. An unknown profile, or one that did not open, is an
// error that says which can be chosen.
func (s *Set) Switch(name string) error {
	i := slices.Index(s.names, name)
	if i < 0 {
		labels := make([]string, len(s.names))
		for j, n := range s.names {
			labels[j] = Label(n)
		}
		return fmt.Errorf("no profile %s; known: %s", text.Quote(name), strings.Join(labels, ", "))
	}
	s.active = i
	return nil
}
