// Package launch is the console's start-up wiring, what main runs before the screen opens: the
// --log file (OpenLog).
package launch
