// Package ladder is the order-book ladder of the current instrument: asks above, bids below, the
// spread and mid between them, each level's price, size, cumulative size and depth bar, the
// trader's own resting orders on their levels, and a marker on levels that just changed. Levels
// group to 1, 2, 5, 10, 50, 100... ticks with + and -. The mid stays in the middle of the pane at
// any height. From a level, b and s open the order form at that price; on the trader's own
// order, x cancels it and shift+up/down (or a typed price) amends it, through the one pipeline.
package ladder
