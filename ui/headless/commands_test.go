package headless

import (
	"slices"
	"strings"
)

// IsCommand reports whether name is a headless command (or a group of them: agent, broker).
func IsCommand(name string) bool {
	return slices.Contains(Commands(), name)
}

// Commands lists the top-level command names, sorted.
func Commands() []string {
	var names []string
	for _, c := range commands {
		top, _, _ := strings.Cut(c.name, " ")
		if !slices.Contains(names, top) {
			names = append(names, top)
		}
	}
	slices.Sort(names)
	return names
}
