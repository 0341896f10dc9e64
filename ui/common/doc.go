// Package common is the pane kit: what every pane, dialog and the command line share. The Pane
// contract and its recipe, Common (the store, styles, keys, clock, guard, and the one current
// instrument), the key map, styles and paints built once from a theme, the cached Table every list
// uses, number and text formatting, and the messages panes send the root model (notices,
// instrument changes, focus requests).
package common
