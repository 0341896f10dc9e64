package profile

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/tradedesk/tradedesk/api/text"
)

// profileName is what a profile may be called: it names the journal's file too.
var profileName = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// Names are the config's profile names, sorted.
func (f File) Names() []string {
	names := make([]string, 0, len(f.Profiles))
	for n := range f.Profiles {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// checkProfiles refuses a profile name the journal could not be named by, a profile inside a
// profile, and a profile that would sign with two keys.
func (f File) checkProfiles() error {
	for _, name := range f.Names() {
		if !profileName.MatchString(name) {
			return fmt.Errorf("[profile.%s]: a profile name is letters, digits, _ and - only: rename it", text.Quote(name))
		}
		if len(f.Profiles[name].Profiles) > 0 {
			return fmt.Errorf("[profile.%s] holds a [profile] table: profiles do not nest; move it to the top level", name)
		}
		if _, err := f.Select(name); err != nil {
			return err
		}
	}
	return nil
}

// Select is the settings of profile name: the top level with the profile's settings laid over
// it (a table's settings one by one). A profile that sets network or url replaces both, and one
// that sets keystore or agent_keystore replaces both, so a top-level choice never rides along
// beside the profile's. "" is the top level as it is; an unknown name says which there are.
func (f File) Select(name string) (File, error) {
	if name == "" {
		return f, nil
	}
	p, ok := f.Profiles[name]
	if !ok {
		if !profileName.MatchString(name) {
			return f, fmt.Errorf("profile %s: a profile name is letters, digits, _ and - only", text.Quote(name))
		}
		if len(f.Profiles) == 0 {
			return f, fmt.Errorf("no profile %s: the config file has no [profile.NAME] tables", text.Quote(name))
		}
		return f, fmt.Errorf("no profile %s in the config file; known: %s", text.Quote(name), strings.Join(f.Names(), ", "))
	}
	out := f
	out.Profiles = nil
	if p.Network != "" || p.URL != "" {
		out.Network, out.URL = "", ""
	}
	if p.Keystore != "" || p.AgentKeystore != "" {
		out.Keystore, out.AgentKeystore = "", ""
	}
	overlay(reflect.ValueOf(&out).Elem(), reflect.ValueOf(p))
	if out.Keystore != "" && out.AgentKeystore != "" {
		return f, fmt.Errorf("[profile.%s]: keystore and agent_keystore are both set: keep the one this profile signs with", name)
	}
	return out, nil
}

// overlay sets each setting of dst that src sets (is not zero), field by field within tables.
func overlay(dst, src reflect.Value) {
	for i := range src.NumField() {
		s, d := src.Field(i), dst.Field(i)
		switch {
		case s.Kind() == reflect.Struct:
			overlay(d, s)
		case !s.IsZero():
			d.Set(s)
		}
	}
}
