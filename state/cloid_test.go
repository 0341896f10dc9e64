package state

import "regexp"

var uuidRe = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// ValidCloid reports whether s is a UUID (8-4-4-4-12 hex digits), the form NewCloid writes.
func ValidCloid(s string) bool { return uuidRe.MatchString(s) }
