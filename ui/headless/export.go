package headless

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/tradedesk/tradedesk/ui/export"
)

func exportFlags(fs *flagSet, o *opts) {
	TextVar(fs.FlagSet, &o.format, "format", "FORMAT", "csv", "csv or json")
	fs.StringVar(&o.output, "output", "", "write to `FILE` (default: standard output)")
}

func init() {
	register(&command{name: "export", groups: gRead &^ gJSON, flags: exportFlags, run: runExport, args: true,
		complete: []string{"fills\tevery fill", "history\tevery order"},
		usage:    "fills|history [--format csv|json] [--output FILE] [--user ADDR]",
		summary:  "Write every page of fills or order history as CSV (header row, exact decimals) or JSON."})
}

// progress draws "exporting fills: 300 of 1,000" on stderr, rewriting the line.
type progress struct {
	w    io.Writer
	what string
	used bool
}

func (p *progress) update(done, total int) {
	p.used = true
	fmt.Fprintf(p.w, "\rexporting %s: %d of %d", p.what, done, total)
}

func (p *progress) end() {
	if p.used {
		fmt.Fprintln(p.w)
	}
}

func runExport(ctx context.Context, r *runner) error {
	if len(r.args) != 1 {
		return usagef("say what to export: fills or history (e.g. tradedesk export fills --format csv)")
	}
	what, err := export.ParseWhat(r.args[0])
	if err != nil {
		return usageError{err.Error()}
	}
	f, err := export.ParseFormat(r.o.format)
	if err != nil {
		return usageError{err.Error()}
	}
	user, err := r.account()
	if err != nil {
		return err
	}
	// Everything is fetched before anything is written: a failed export leaves no partial file.
	var buf bytes.Buffer
	p := &progress{w: r.progress, what: what.String()}
	n, err := export.Run(ctx, r.client, user, what, f, &buf, p.update)
	p.end()
	if err != nil {
		return err
	}
	if r.o.output == "" {
		_, err = r.env.Stdout.Write(buf.Bytes())
		return err
	}
	if err := writeFileAtomic(r.o.output, buf.Bytes()); err != nil {
		return err
	}
	fmt.Fprintf(r.env.Stderr, "wrote %d %s records to %s\n", n, what, r.o.output)
	return nil
}

// writeFileAtomic writes data to a temporary file beside path and renames it into place.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("cannot write %s: %w", path, werr)
	}
	return nil
}
