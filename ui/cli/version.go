package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

// Build is what the binary knows of its own build (debug.ReadBuildInfo): the module version,
// the commit, its time, and whether the tree had uncommitted changes.
type Build struct {
	Module    string `json:"module"`
	Version   string `json:"version"`            // "(devel)" when built without a version
	Revision  string `json:"revision,omitempty"` // vcs.revision ("" when built without VCS stamping)
	Time      string `json:"time,omitempty"`     // vcs.time: the commit's time, RFC 3339
	Dirty     bool   `json:"dirty"`              // vcs.modified
	GoVersion string `json:"go"`
}

// ReadBuild reads the running binary's build information.
func ReadBuild() Build {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Build{Version: "(unknown)"}
	}
	return buildOf(bi)
}

func buildOf(bi *debug.BuildInfo) Build {
	b := Build{Module: bi.Main.Path, Version: bi.Main.Version, GoVersion: bi.GoVersion}
	if b.Version == "" {
		b.Version = "(devel)"
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Revision = s.Value
		case "vcs.time":
			b.Time = s.Value
		case "vcs.modified":
			b.Dirty = s.Value == "true"
		}
	}
	return b
}

// Short is the version on one line: "v1.2.3 (commit 0123abcd, 2026-11-22T21:00:00Z, dirty)".
func (b Build) Short() string {
	var parts []string
	if b.Revision != "" {
		parts = append(parts, "commit "+b.Revision)
	}
	if b.Time != "" {
		parts = append(parts, b.Time)
	}
	if b.Dirty {
		parts = append(parts, "dirty")
	}
	if len(parts) == 0 {
		return b.Version
	}
	return b.Version + " (" + strings.Join(parts, ", ") + ")"
}

// versionCommand is `tradedesk version`: the build, one fact a line, or as JSON.
func versionCommand(stdout io.Writer) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "version [--json]",
		Short: "Print the version, commit and build of this binary",
		Args:  cobra.NoArgs,
		// The usage line already lists the flags.
		DisableFlagsInUseLine: true,
		RunE: func(*cobra.Command, []string) error {
			b := ReadBuild()
			if asJSON {
				enc := json.NewEncoder(stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(b)
			}
			_, err := fmt.Fprint(stdout, b.Lines())
			return err
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the build as JSON")
	return c
}

// Lines is the build one fact a line, as `tradedesk version` prints it.
func (b Build) Lines() string {
	or := func(s string) string {
		if s == "" {
			return "unknown (built without VCS information)"
		}
		return s
	}
	return fmt.Sprintf("tradedesk %s\nmodule    %s\ncommit    %s\ncommitted %s\ndirty     %t\ngo        %s\n",
		b.Version, b.Module, or(b.Revision), or(b.Time), b.Dirty, b.GoVersion)
}
