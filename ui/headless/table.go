package headless

import (
	"encoding/json"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
)

// table is a text table: a header and rows, numbers right-aligned, text left-aligned, columns
// separated by two spaces.
type table struct {
	head  []string
	right []bool // per column: right-align
	rows  [][]string
}

// newTable starts a table; a header ending in ">" is right-aligned (the ">" is dropped).
func newTable(head ...string) *table {
	t := &table{head: make([]string, len(head)), right: make([]bool, len(head))}
	for i, h := range head {
		t.head[i] = strings.TrimSuffix(h, ">")
		t.right[i] = strings.HasSuffix(h, ">")
	}
	return t
}

// add adds a row. Cells are cleaned (text.Clean) before anything is measured: they hold names,
// cloids and addresses a server or another program chose.
func (t *table) add(cells ...string) {
	row := make([]string, len(cells))
	for i, c := range cells {
		row[i] = text.Clean(c)
	}
	t.rows = append(t.rows, row)
}

// write prints the table; an empty table prints the header and "(none)".
func (t *table) write(w io.Writer) error {
	widths := make([]int, len(t.head))
	measure := func(cells []string) {
		for i, c := range cells {
			if i < len(widths) {
				widths[i] = max(widths[i], utf8.RuneCountInString(c))
			}
		}
	}
	measure(t.head)
	for _, r := range t.rows {
		measure(r)
	}
	var b strings.Builder
	t.line(&b, t.head, widths)
	for _, r := range t.rows {
		t.line(&b, r, widths)
	}
	if len(t.rows) == 0 {
		b.WriteString("(none)\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func (t *table) line(b *strings.Builder, cells []string, widths []int) {
	var l strings.Builder
	for i := range widths {
		c := ""
		if i < len(cells) {
			c = cells[i]
		}
		pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
		if i > 0 {
			l.WriteString("  ")
		}
		if t.right[i] {
			l.WriteString(pad + c)
		} else {
			l.WriteString(c + pad)
		}
	}
	b.WriteString(strings.TrimRight(l.String(), " "))
	b.WriteByte('\n')
}

// kv is a two-column list of labels and values.
type kv struct{ t *table }

// newKV starts a list; numbers reads best with values right-aligned, sentences left-aligned.
func newKV(numbers bool) *kv {
	return &kv{t: &table{head: []string{"", ""}, right: []bool{false, numbers}}}
}

func (k *kv) add(label, value string) { k.t.add(label, value) }

func (k *kv) write(w io.Writer) error {
	k.t.head = nil
	widths := []int{0, 0}
	for _, r := range k.t.rows {
		widths[0] = max(widths[0], utf8.RuneCountInString(r[0]))
		widths[1] = max(widths[1], utf8.RuneCountInString(r[1]))
	}
	var b strings.Builder
	for _, r := range k.t.rows {
		k.t.line(&b, r, widths)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeJSON prints v as indented JSON.
// actionJSON is a signed action's answer as --json prints it: the exchange's answer and the
// outcome word of the exit table.
type actionJSON struct {
	Outcome string `json:"outcome"`
	api.TxResponse
}

// okJSON is a done action's answer.
func okJSON(resp api.TxResponse) actionJSON {
	return actionJSON{Outcome: OutcomeWord(ExitOK), TxResponse: resp}
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
