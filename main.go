// Command tradedesk is a keyboard-first terminal console for trading perpetual futures and spot on
// an exchange that speaks the Exchange Trading API. With no flags it opens a live demo against an
// embedded simulated exchange; see --help.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"runtime"
	"runtime/pprof"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state/alert"
	"github.com/tradedesk/tradedesk/state/guard"
	"github.com/tradedesk/tradedesk/state/profile"
	"github.com/tradedesk/tradedesk/ui"
	"github.com/tradedesk/tradedesk/ui/cli"
	"github.com/tradedesk/tradedesk/ui/components/cmdline"
	"github.com/tradedesk/tradedesk/ui/headless"
	"github.com/tradedesk/tradedesk/ui/launch"
	"github.com/tradedesk/tradedesk/ui/redact"
	"github.com/tradedesk/tradedesk/ui/screen"
)

// guardBeat is how often the console sends its account's guard a heartbeat (0: a second). The
// process tests set it short in the program they run as (TestMain), so a dead-man's switch of a
// short span still sees many heartbeats.
var guardBeat time.Duration

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run runs one command line (ui/cli: the console with no command, sim, the headless commands,
// version, help, completion, man) and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	// Nothing written repeats the key or passphrase from the environment, and no error repeats
	// anything spelled like a private key (a key pasted into the wrong flag or setting). No
	// control character from outside text (a server's error, a file name) reaches the terminal.
	// The key and passphrase leave the environment here, read once (no child process or
	// library sees them); the key loaders get them through getenv.
	getenv := api.TakeSecretEnv()
	secrets := []string{getenv(api.EnvPrivateKey), getenv(api.EnvPassphrase)}
	screenOut := stdout // the console's frames and modes go to the terminal as they are
	stdout = redact.NewWriter(text.NewWriter(stdout, false), false, secrets...)
	stderr = redact.NewWriter(text.NewWriter(stderr, true), true, secrets...)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	simCmd := sim.NewCommand(stdout, stderr)
	return cli.Run(ctx, args, cli.Program{
		Stdout: stdout, Stderr: stderr,
		Console: func(ctx context.Context, o options) error { return console(ctx, o, screenOut, stderr, getenv) },
		Sim:     cli.Sim{Flags: simCmd.Flags, Help: sim.CommandHelp, Run: simCmd.Run},
		Env: headless.Env{Stdin: os.Stdin, Getenv: getenv, LoadDefaults: func(path, name string) (headless.Connection, error) {
			return configConnection(path, name, stderr)
		}},
	})
}

// options are the console's flags (ui/cli declares them).
type options = cli.ConsoleOptions

// console loads the config, connects (or starts the demo), and runs the screen until quit. With
// [profile.NAME] tables every profile opens beside the one asked for (ui.Switcher, ctrl+a: the
// profiles, the combined view and the Vaults view; with none, ctrl+a lists the one).
func console(ctx context.Context, o options, stdout, stderr io.Writer, getenv func(string) string) error {
	all, err := loadConfig(o.Config, stderr)
	if err != nil {
		return err
	}
	logger, closeLog, err := launch.OpenLog(o.LogFile)
	if err != nil {
		return err
	}
	defer closeLog()
	slog.SetDefault(logger)
	procs := consoleProcs(getenv)
	runtime.GOMAXPROCS(procs)
	slog.Info("console", "gomaxprocs", procs)
	first, closeFirst, err := openProfile(ctx, o, all, stderr, getenv)
	if err != nil {
		return err
	}
	defer closeFirst()
	stopProfile, err := startProfile(o.CPUProfile)
	if err != nil {
		return err
	}
	defer stopProfile()
	cfgs, closeOthers := openOtherProfiles(ctx, o, all, stderr, getenv)
	defer closeOthers()
	sw, err := ui.NewSwitcher(append([]ui.Config{first}, cfgs...)...)
	if err != nil {
		return err
	}
	return runScreen(ctx, ui.TimeFirstFrame(sw), stdout)
}

// openProfile connects one profile of the config (o.Profile; "": the top level) as the console
// runs it: its settings, exchange, executor on its own journal, risk limits and stream.
func openProfile(ctx context.Context, o options, all fileConfig, stderr io.Writer, getenv func(string) string) (ui.Config, func(), error) {
	cfg, err := all.Select(o.Profile)
	if err != nil {
		return ui.Config{}, nil, headless.Usage(fmt.Errorf("--profile: %w", err))
	}
	env := launch.KeyEnv{Getenv: getenv, AccountFromConfig: o.Address == "" && cfg.Account != "", AddressFlag: o.AddressFlag}
	mergeFlags(&o, cfg)
	settings, err := consoleSettings(o, cfg)
	if err != nil {
		return ui.Config{}, nil, err
	}
	limits, err := cfg.Risk.Limits()
	if err != nil {
		return ui.Config{}, nil, err
	}
	conn, err := launch.Connect(ctx, o, stderr, env)
	if err != nil {
		return ui.Config{}, nil, err
	}
	slog.Info("console start", "profile", o.Profile, "mode", conn.Mode, "network", conn.Network, "address", conn.Client.Address())
	settings.Exchange, settings.Mode, settings.Network, settings.ReadOnlyReason = conn.Client, conn.Mode, conn.Network, conn.ReadOnly
	settings.AgentUntil = conn.AgentUntil
	settings.Fees = conn.Fees
	if conn.Sim == nil { // the embedded demo's exchange lives in this process: no guard runs for it
		settings.GuardDir = guard.SocketDir(getenv("XDG_RUNTIME_DIR"), headless.StateDir(&headless.Env{Getenv: getenv}))
		settings.GuardBeat = guardBeat
	}
	closeExec, err := launch.OpenExecutor(&settings, conn, getenv, limits)
	if err != nil {
		conn.Close()
		return ui.Config{}, nil, err
	}
	closeLive, err := launch.OpenShadowLive(&settings, conn, getenv, limits)
	if err != nil {
		closeExec()
		conn.Close()
		return ui.Config{}, nil, err
	}
	closeStream := func() {}
	if stream, off := openStream(conn.Client, o, cfg); stream != nil {
		closeStream = func() { stream.Close() }
		settings.Stream = stream
	} else {
		settings.StreamOff = off
	}
	return settings, func() { closeStream(); closeLive(); closeExec(); conn.Close() }, nil
}

// openOtherProfiles opens every profile of the config but o.Profile's beside it
// (launch.OpenOtherProfiles), each as openProfile opens the first.
func openOtherProfiles(ctx context.Context, o options, all fileConfig, stderr io.Writer, getenv func(string) string) ([]ui.Config, func()) {
	return launch.OpenOtherProfiles(ctx, o, all.Names(), stderr, func(ctx context.Context, o options) (ui.Config, func(), error) {
		return openProfile(ctx, o, all, stderr, getenv)
	})
}

// consoleProcs is how many threads the console's Go code runs on at once (GOMAXPROCS): the
// environment's GOMAXPROCS when set, else one. The console's work comes in small bursts (a market
// step, a key, an answer), each handed from goroutine to goroutine (the socket's reader, the
// inbox, the feed, the event loop, the terminal's writer); with a second processor idle, each
// hand-off woke another thread that found nothing left to do. On one, the idle streaming demo
// woke 12-21 times a second instead of 30-34, at 0.30-0.32 % of a core instead of 0.37-0.40 %
// (issue #34; the README's Performance, "History").
func consoleProcs(getenv func(string) string) int {
	if getenv("GOMAXPROCS") != "" {
		return runtime.GOMAXPROCS(0) // the runtime has applied it
	}
	return 1
}

// runScreen runs the console's model on the terminal until quit. Frames are drawn on demand
// (ui/screen), not by Bubble Tea's renderer: it wakes at a fixed rate whether or not anything
// changed. TimeFirstFrame logs "first live frame" (ms since start) once, for the --log file.
func runScreen(ctx context.Context, root tea.Model, stdout io.Writer) error {
	tty, err := screen.Open(os.Stdin, stdout, ui.FrameRate)
	if err != nil {
		return err
	}
	defer func() { _ = tty.Close() }()
	p := screen.Program(root, tty.Renderer(), tea.WithContext(ctx))
	sizeCtx, stopSizes := context.WithCancel(ctx)
	defer stopSizes()
	go tty.Sizes(sizeCtx, p.Send)
	_, err = p.Run()
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return nil
	}
	return err
}

// consoleSettings is the console's configuration before it connects: theme, key map, poll
// intervals, fat-finger guard and watchlist, from the flags and the config file. NO_COLOR turns
// colour off for every pane here.
func consoleSettings(o options, cfg fileConfig) (ui.Config, error) {
	theme, err := buildTheme(o.Theme)
	if err != nil {
		return ui.Config{}, headless.Usage(err) // --theme pink: a flag to fix (exit 2)
	}
	if theme.NoColor {
		lipgloss.SetColorProfile(termenv.Ascii)
	}
	keys, err := buildKeyMap(cfg.Keys)
	if err != nil {
		return ui.Config{}, err
	}
	intervals, err := cfg.Poll.Intervals()
	if err != nil {
		return ui.Config{}, err
	}
	guard, err := cfg.Guard.Guard()
	if err != nil {
		return ui.Config{}, err
	}
	sizes, large, err := cfg.Depth.Settings()
	if err != nil {
		return ui.Config{}, err
	}
	rules, err := cfg.AlertRules()
	if err == nil {
		err = cfg.AlertDelivery()
	}
	if err != nil {
		return ui.Config{}, err
	}
	onRestart, err := cfg.OnRestart.Choices()
	if err != nil {
		return ui.Config{}, err
	}
	// The desktop notification's escape goes to the terminal the screen is drawn on.
	delivery := &alert.Delivery{Command: cfg.OnAlert, Webhook: cfg.AlertWebhook, Desktop: alert.NewDesktop(os.Getenv, os.Stdout)}
	return ui.Config{Keys: keys, Theme: theme, Intervals: intervals, Guard: guard, Watchlist: cfg.Watchlist, Stats: o.Stats, Profile: o.Profile,
		NoFillBell: cfg.FillBell != nil && !*cfg.FillBell, DefaultSizes: sizes, LargeTrade: large,
		CommandHistory: historyPath(o.Profile), Alerts: ui.AlertSettings{Rules: rules, Delivery: delivery}, AlgoOnRestart: onRestart}, nil
}

// historyPath is the command line's history file: a profile's own (command_history.NAME, then
// per network as every history file), so a line typed for one account never comes back on another.
func historyPath(profile string) string {
	base := cmdline.DefaultHistoryPath()
	if base == "" || profile == "" {
		return base
	}
	return base + "." + profile
}

// startProfile starts the --cpuprofile CPU profile (nothing when path is empty); the function it
// returns stops the profile, closes the file and writes the live heap (after a GC) to
// path+".heap", for `go tool pprof -inuse_space`: what the session held at the end.
func startProfile(path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		_ = f.Close()
		writeHeapProfile(path + ".heap")
	}, nil
}

// writeHeapProfile writes the live heap after a GC to path; a failure is only logged (the session
// is over).
func writeHeapProfile(path string) {
	f, err := os.Create(path)
	if err != nil {
		slog.Warn("heap profile", "err", err)
		return
	}
	defer f.Close()
	runtime.GC()
	if err := pprof.WriteHeapProfile(f); err != nil {
		slog.Warn("heap profile", "err", err)
	}
}

// fileConfig is the config file (profile.File, shared with the headless commands).
type fileConfig = profile.File

// loadConfig reads the config file (profile.Load).
func loadConfig(path string, stderr io.Writer) (fileConfig, error) { return profile.Load(path, stderr) }

// mergeFlags fills options the flags left empty from the config file, by the rule the headless
// commands follow too (headless.MergeConnection).
func mergeFlags(o *options, cfg fileConfig) {
	o.Connection = headless.MergeConsoleFlags(o.Connection, headless.FileConnection(cfg))
	if o.Theme == "" {
		o.Theme = cfg.Theme
	}
}

// configConnection is the config file's connection and guard (of profile name, "": the top
// level), the headless commands' defaults (their flags override it).
func configConnection(path, name string, stderr io.Writer) (headless.Connection, error) {
	cfg, err := loadConfig(path, stderr)
	if err != nil {
		return headless.Connection{}, err
	}
	if cfg, err = cfg.Select(name); err != nil {
		return headless.Connection{}, fmt.Errorf("--profile: %w", err)
	}
	return headless.ProfileConnection(cfg)
}

// openStream connects the exchange's WebSocket (same host, /ws/) unless --no-stream or the config
// file's stream = false turned it off; then it returns nil and why, for the status line.
func openStream(client *api.Client, o options, cfg fileConfig) (*api.Stream, string) {
	switch {
	case o.NoStream:
		return nil, "--no-stream"
	case cfg.Stream != nil && !*cfg.Stream:
		return nil, "config stream = false"
	}
	u, err := api.StreamURL(client.BaseURL())
	if err != nil {
		return nil, err.Error()
	}
	return api.NewStream(u), ""
}
