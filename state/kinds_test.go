package state

// Kinds returns every kind, in registration order.
func Kinds() []Kind {
	out := make([]Kind, len(kinds))
	for i := range out {
		out[i] = Kind(i)
	}
	return out
}
