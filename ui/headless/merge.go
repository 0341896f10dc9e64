package headless

// MergeConnection is the one rule by which flags override the config file's connection, for the
// console and the headless commands alike. set reports whether the trader gave a flag (by its
// name: url, network, insecure, action-type, keystore, agent-keystore, account, address).
//
//   - A flag replaces the config's value; --url drops the config's network and --network its URL.
//   - A key flag (--keystore or --agent-keystore) replaces the config's key choice whole, so a
//     config's agent_keystore never rides along beside a --keystore (or the reverse).
//   - The config's guard is kept: no flag sets it.
//   - The profile is the flags' (the file's settings are already that profile's).
func MergeConnection(flags, file Connection, set func(flag string) bool) Connection {
	c := file
	c.Profile = flags.Profile
	if set("url") || set("network") {
		c.URL, c.Network = "", ""
	}
	if set("keystore") || set("agent-keystore") {
		c.Keystore, c.AgentKeystore = "", ""
	}
	for name, apply := range map[string]func(){
		"url": func() { c.URL = flags.URL }, "network": func() { c.Network = flags.Network },
		"insecure": func() { c.Insecure = flags.Insecure }, "action-type": func() { c.ActionType = flags.ActionType },
		"keystore": func() { c.Keystore = flags.Keystore }, "agent-keystore": func() { c.AgentKeystore = flags.AgentKeystore },
		"account": func() { c.Address = flags.Address }, "address": func() { c.Address = flags.Address },
	} {
		if set(name) {
			apply()
		}
	}
	return c
}

// flagsGiven reports a flag as given when its value is not the zero value: the rule for options
// that come without a record of which flags were typed (the console's).
func flagsGiven(flags Connection) func(string) bool {
	given := map[string]bool{
		"url": flags.URL != "", "network": flags.Network != "", "insecure": flags.Insecure,
		"action-type": flags.ActionType != "", "keystore": flags.Keystore != "",
		"agent-keystore": flags.AgentKeystore != "", "account": flags.Address != "",
	}
	return func(name string) bool { return given[name] }
}

// MergeConsoleFlags is MergeConnection for the console, whose options count a flag as given when
// it is set to something.
func MergeConsoleFlags(flags, file Connection) Connection {
	return MergeConnection(flags, file, flagsGiven(flags))
}
