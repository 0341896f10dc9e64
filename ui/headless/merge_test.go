package headless

import "testing"

// TestFlagsOverrideTheConfigOneWay: the console and the headless commands merge flags over the
// config file by one rule (MergeConnection): a flag wins, --url drops the config's network and
// --network its URL, and a key flag replaces the config's key choice whole.
func TestFlagsOverrideTheConfigOneWay(t *testing.T) {
	t.Parallel()
	file := Connection{Network: "testnet", Keystore: "cfg.json", Address: "0xcfg", ActionType: "name"}
	agentFile := Connection{Network: "mainnet", AgentKeystore: "agent.json", Address: "0xcfg"}
	for _, c := range []struct {
		name        string
		flags, file Connection
		want        Connection
	}{
		{"nothing given", Connection{}, file, file},
		{"url drops network", Connection{URL: "http://127.0.0.1:1/"}, file,
			Connection{URL: "http://127.0.0.1:1/", Keystore: "cfg.json", Address: "0xcfg", ActionType: "name"}},
		{"network drops url", Connection{Network: "mainnet"}, Connection{URL: "http://x/", Address: "0xcfg"},
			Connection{Network: "mainnet", Address: "0xcfg"}},
		{"keystore replaces the config's agent", Connection{Keystore: "mine.json"}, agentFile,
			Connection{Network: "mainnet", Keystore: "mine.json", Address: "0xcfg"}},
		{"agent replaces the config's keystore", Connection{AgentKeystore: "a.json", Address: "0xacct"}, file,
			Connection{Network: "testnet", AgentKeystore: "a.json", Address: "0xacct", ActionType: "name"}},
		{"action type", Connection{ActionType: "number"}, file,
			Connection{Network: "testnet", Keystore: "cfg.json", Address: "0xcfg", ActionType: "number"}},
		{"insecure", Connection{Insecure: true}, file,
			Connection{Network: "testnet", Keystore: "cfg.json", Address: "0xcfg", ActionType: "name", Insecure: true}},
	} {
		if got := MergeConsoleFlags(c.flags, c.file); got != c.want {
			t.Errorf("%s: console merged %+v, want %+v", c.name, got, c.want)
		}
		given := flagsGiven(c.flags)
		if got := MergeConnection(c.flags, c.file, given); got != c.want {
			t.Errorf("%s: headless merged %+v, want %+v", c.name, got, c.want)
		}
	}
}
