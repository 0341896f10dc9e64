package ui

import "github.com/tradedesk/tradedesk/ui/common/commontest"

// testKeys is the top level's default key table, read from keymap.go itself.
var testKeys = commontest.DefaultKeys()
