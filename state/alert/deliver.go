package alert

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/tradedesk/tradedesk/api/text"
)

// CommandTimeout bounds one run of the on_alert command.
const CommandTimeout = 10 * time.Second

// WebhookAttempts is how many times a webhook POST is tried; the waits between double from
// WebhookBackoff.
const WebhookAttempts = 4

// WebhookBackoff is the first wait before a webhook POST is tried again.
const WebhookBackoff = time.Second

// Delivery sends alerts beyond the terminal: the on_alert command and the webhook, each alert on
// its own (nothing of a burst is dropped), and the desktop notification once a burst (Summary).
// The zero value sends nothing.
type Delivery struct {
	Command []string // on_alert: the program's absolute path and its arguments (never a shell)
	Webhook string   // checked by the profile: https, or http to loopback
	Desktop *Desktop // nil: no desktop notification
	Client  *http.Client
	Sleep   func(context.Context, time.Duration) error // nil: a timer; tests step it
}

// CheckCommand checks an on_alert argument list: a program's absolute path, then its arguments.
func CheckCommand(argv []string) error {
	if len(argv) == 0 || !filepath.IsAbs(argv[0]) {
		return errors.New(`give the program's absolute path first, then its arguments: on_alert = ["/usr/local/bin/notify", "--urgent"]`)
	}
	for _, a := range argv {
		if strings.ContainsRune(a, 0) {
			return errors.New("an argument holds a NUL byte; remove it")
		}
	}
	return nil
}

// Send delivers evs and returns what failed, each error saying where (the caller shows them).
func (d *Delivery) Send(ctx context.Context, evs []Event) []error {
	var errs []error
	if len(evs) == 0 {
		return nil
	}
	if d.Desktop != nil {
		if err := d.Desktop.Notify(ctx, Summary(evs)); err != nil {
			errs = append(errs, fmt.Errorf("desktop notification: %w", err))
		}
	}
	for _, ev := range evs {
		body, err := json.Marshal(ev)
		if err != nil {
			return append(errs, err)
		}
		if len(d.Command) > 0 {
			if err := d.run(ctx, body); err != nil {
				errs = append(errs, fmt.Errorf("on_alert %s: %w", text.Quote(d.Command[0]), err))
			}
		}
		if d.Webhook != "" {
			if err := d.post(ctx, body); err != nil {
				errs = append(errs, fmt.Errorf("alert webhook: %w", err))
			}
		}
	}
	return errs
}

// run runs the on_alert command with one alert's JSON on its stdin.
func (d *Delivery) run(ctx context.Context, body []byte) error {
	if err := CheckCommand(d.Command); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, CommandTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, d.Command[0], d.Command[1:]...)
	cmd.Stdin = bytes.NewReader(append(body, '\n'))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &out
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(out.String())
		if len(msg) > 200 {
			msg = msg[:200]
		}
		return fmt.Errorf("%w %s", err, text.Brief(msg))
	}
	return nil
}

// post sends one alert to the webhook, tried again with a doubling wait when it fails.
func (d *Delivery) post(ctx context.Context, body []byte) error {
	client := d.Client
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Second}
	}
	sleep := d.Sleep
	if sleep == nil {
		sleep = wait
	}
	var last error
	backoff := WebhookBackoff
	for attempt := range WebhookAttempts {
		if attempt > 0 {
			if err := sleep(ctx, backoff); err != nil {
				return err
			}
			backoff *= 2
		}
		last = postOnce(ctx, client, d.Webhook, body)
		if last == nil {
			return nil
		}
	}
	return fmt.Errorf("%d tries: %w", WebhookAttempts, last)
}

func postOnce(ctx context.Context, c *http.Client, url string, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return errors.New(text.Brief(err.Error()))
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("the webhook answered %d", resp.StatusCode)
	}
	return nil
}

func wait(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
