package journal

import "github.com/tradedesk/tradedesk/state/record"

// The journal's values are record's (state/record), so a package that only reads or builds them
// links no SQLite; these names keep the journal's callers reading as before.

// Who says who asked for an intent (record.Who).
type Who = record.Who

// Who asked (record.WhoForm ...).
const (
	WhoForm        = record.WhoForm
	WhoCommandLine = record.WhoCommandLine
	WhoHeadless    = record.WhoHeadless
	WhoAlgorithm   = record.WhoAlgorithm
)

// State is how far an intent got (record.State).
type State = record.State

// The states of an intent (record.StateNew, record.StateSent).
const (
	StateNew  = record.StateNew
	StateSent = record.StateSent
)

// Intent is one action about to be signed (record.Intent).
type Intent = record.Intent

// Numbers are child numbers of an algorithm (record.Numbers).
type Numbers = record.Numbers

// Outcome is what became of an intent (record.Outcome).
type Outcome = record.Outcome

// Entry is one intent as the journal holds it (record.Entry).
type Entry = record.Entry

// Arrival is the market as an order met it at send time (record.Arrival).
type Arrival = record.Arrival

// Route is when an order passed each point of its way (record.Route).
type Route = record.Route

// AlgoMarket is the market's trades over an algorithm's interval (record.AlgoMarket).
type AlgoMarket = record.AlgoMarket

// Algo is one algorithm as the journal holds it (record.Algo).
type Algo = record.Algo

// AlgoRunning and AlgoPaused are the states of an algorithm that has not ended
// (record.AlgoRunning, record.AlgoPaused).
const (
	AlgoRunning = record.AlgoRunning
	AlgoPaused  = record.AlgoPaused
)

// AlertDef is one alert definition as the journal keeps it (record.AlertDef).
type AlertDef = record.AlertDef

// ErrUsedID is returned by Begin for an id the journal already holds (record.ErrUsedID: the
// same error, so errors.Is matches either name).
var ErrUsedID = record.ErrUsedID

// ChildCloid is the client id of child n of the intent parent (record.ChildCloid).
func ChildCloid(parent string, n int) (string, error) { return record.ChildCloid(parent, n) }

// Path is the journal file of one network and account under dir (record.Path).
func Path(dir, network, account string) string { return record.Path(dir, network, account) }

// ProfilePath is Path for a named config profile (record.ProfilePath).
func ProfilePath(dir, network, account, profile string) string {
	return record.ProfilePath(dir, network, account, profile)
}
