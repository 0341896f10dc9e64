package text

import "io"

// Writer passes what is written through CleanLines (and, when it hides keys, HideKeys) before
// it reaches the terminal: the last guard on a stream such as stderr, where error messages
// carry outside text. Callers write whole lines: a character or key split across two writes is
// not seen whole.
type Writer struct {
	w        io.Writer
	hideKeys bool
}

// NewWriter wraps w; with hideKeys, runs of hex digits shaped like a key are hidden too.
func NewWriter(w io.Writer, hideKeys bool) *Writer { return &Writer{w: w, hideKeys: hideKeys} }

// Write implements io.Writer. It reports len(p) when the cleaned text was written whole.
func (t *Writer) Write(p []byte) (int, error) {
	s := CleanLines(string(p))
	if t.hideKeys {
		s = HideKeys(s)
	}
	if _, err := io.WriteString(t.w, s); err != nil {
		return 0, err
	}
	return len(p), nil
}
