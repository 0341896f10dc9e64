// Package guard is the guard's side of tradedesk that needs no exchange: its dead-man's switch
// (DeadMan), and the small versioned protocol a console or a command speaks to a running guard
// over a unix socket (Listen, Call). The protocol is NDJSON: one Request line, one Response line
// per request; each carries the protocol version, and a peer of another version is refused with
// a message that says so.
package guard

import (
	"encoding/json"
	"time"

	"github.com/shopspring/decimal"
)

// Version is the protocol's version. A request of another version is answered with an error
// naming both, and nothing else.
const Version = 1

// The requests.
const (
	CmdStatus    = "status"    // the guard's state: Response.Status
	CmdHeartbeat = "heartbeat" // a heartbeat for the dead-man's switch
	CmdStop      = "stop"      // stop the guard, leaving its algorithms resumable
)

// Request is one line a client sends.
type Request struct {
	V   int    `json:"v"`
	Cmd string `json:"cmd"`
}

// Response is the guard's one line of answer.
type Response struct {
	V      int     `json:"v"`
	OK     bool    `json:"ok"`
	Error  string  `json:"error,omitempty"`
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
}

// Algo is one algorithm the guard runs, with its last progress.
type Algo struct {
	ID         string          `json:"id"`
	Kind       string          `json:"kind"`
	Instrument string          `json:"instrument,omitempty"`
	Side       string          `json:"side,omitempty"`
	Target     decimal.Decimal `json:"target"`
	Filled     decimal.Decimal `json:"filled"`
	State      string          `json:"state"`
	Detail     string          `json:"detail,omitempty"`
}

// Alert is one alert the guard evaluates.
type Alert struct {
	ID        string     `json:"id"`
	Rule      string     `json:"rule"`
	LastFired *time.Time `json:"last_fired,omitempty"`
}

// encodeLine is v as one NDJSON line.
func encodeLine(v any) []byte {
	b, _ := json.Marshal(v)
	return append(b, '\n')
}
