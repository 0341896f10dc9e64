package sim

import "github.com/tradedesk/tradedesk/api"

// withStoreCheck makes every write check that nothing changed that it did not write.
func withStoreCheck() Option { return func(c *config) { c.storeCheck = true } }

// place checks and executes one order for an account, with no bracket (engine.placeJoined).
func (e *engine) place(a *account, w *api.OrderWire) (*order, error) {
	return e.placeJoined(a, w, nil)
}
