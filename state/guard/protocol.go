// Package guard is the guard's side of tradedesk that needs no exchange: its dead-man's switch
// (DeadMan), and the small versioned protocol a console or a command speaks to a running guard
// over a unix socket (Listen, Call). The protocol is NDJSON: one Request line, one Response line
// per request; each carries the protocol version, and a peer of another version is refused with
// a message that says so.
package guard

import (
	"encoding/json"
	"time"

	"github.com/tradedesk/tradedesk/state/algo"
)

// Version is the protocol's version. A request of another version is answered with an error
// naming both, and nothing else.
const Version = 1

// The requests.
const (
	CmdStatus    = "status"    // the guard's state: Response.Status
	CmdHeartbeat = "heartbeat" // a heartbeat for the dead-man's switch; answered with the status
	CmdStop      = "stop"      // stop the guard, leaving its algorithms resumable
	// CmdAttach attaches a console for Request.Account: refused when the guard runs for another
	// account. The connection is the console's until it closes; status lists it.
	CmdAttach = "attach"
	// CmdStart starts an algorithm in the guard: Request.Kind (chase, twap, trail, scale) and
	// Request.Params (the algorithm's parameters as the journal keeps them); Response.ID is its id.
	CmdStart = "start"
	// CmdStopAlgo stops the guard's algorithm Request.ID (its working order cancelled).
	CmdStopAlgo = "stop-algo"
	// CmdPause pauses algorithm Request.ID (algo.Pause: its working order cancelled, nothing
	// sent until CmdResume resumes it).
	CmdPause  = "pause"
	CmdResume = "resume"
	// CmdArm arms the dead-man's switch for Request.After seconds (0 disarms it), with
	// Request.Flatten.
	CmdArm = "arm"
)

// Request is one line a client sends.
type Request struct {
	V       int             `json:"v"`
	Cmd     string          `json:"cmd"`
	Account string          `json:"account,omitempty"`
	Who     string          `json:"who,omitempty"`
	Kind    string          `json:"kind,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	ID      string          `json:"id,omitempty"`
	After   float64         `json:"after_s,omitempty"`
	Flatten bool            `json:"flatten,omitempty"`
}

// Response is the guard's one line of answer.
type Response struct {
	V      int     `json:"v"`
	OK     bool    `json:"ok"`
	Error  string  `json:"error,omitempty"`
	ID     string  `json:"id,omitempty"`
	Status *Status `json:"status,omitempty"`
}

// Status is what a guard is doing.
type Status struct {
	Account    string       `json:"account"`
	Network    string       `json:"network"`
	PID        int          `json:"pid"`
	Started    time.Time    `json:"started"`
	Algorithms []Algo       `json:"algorithms"`
	Alerts     []Alert      `json:"alerts"`
	DeadMan    DeadManState `json:"dead_man"`
	Consoles   []Console    `json:"consoles"`
	// Exchange says whether the guard reaches the exchange, and since when it has not.
	Exchange Reach `json:"exchange"`
}

// Console is one attached console.
type Console struct {
	PID           int       `json:"pid"`
	Who           string    `json:"who,omitempty"`
	Since         time.Time `json:"since"`
	LastHeartbeat time.Time `json:"last_heartbeat"`
}

// Reach is the guard's view of the exchange.
type Reach struct {
	OK        bool       `json:"ok"`
	LostSince *time.Time `json:"lost_since,omitempty"`
}

// Algo is one algorithm the guard runs, with its last progress (the engine's own), and when its
// time runs out (zero: no limit).
type Algo struct {
	algo.Progress
	Until time.Time `json:"until,omitempty"`
}

// Alert is one alert the guard evaluates.
type Alert struct {
	ID        string     `json:"id"`
	Rule      string     `json:"rule"`
	LastFired *time.Time `json:"last_fired,omitempty"`
	// Watched says the guard evaluates it (the alerts in the journal when it started); one added
	// since is evaluated by an attached console until the guard starts again.
	Watched bool `json:"watched"`
}

// encodeLine is v as one NDJSON line.
func encodeLine(v any) []byte {
	b, _ := json.Marshal(v)
	return append(b, '\n')
}
