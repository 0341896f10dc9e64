// Package launch is the console's start-up wiring, what main runs before the screen opens: the
// exchange it talks to (Connect: the embedded demo, StartDemo; a shadow session's mirror and paper
// wallet, and its live session, OpenShadowLive; or a real exchange, LIVE only with a key), the
// executor every order goes through (OpenExecutor), the config's other profiles beside the first
// (OpenOtherProfiles) and the --log file (OpenLog).
package launch
