// Package tickers is the tickers pane: every instrument's mark, last, 24 h change, book, funding,
// open interest and volume from one poll, sortable and filterable, with favourites first and a
// brief flash on a moved price. Its selection picks the console's current instrument.
package tickers
