package ui

import (
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/balances"
	"github.com/tradedesk/tradedesk/ui/components/brokers"
	"github.com/tradedesk/tradedesk/ui/components/chart"
	"github.com/tradedesk/tradedesk/ui/components/daily"
	"github.com/tradedesk/tradedesk/ui/components/equity"
	"github.com/tradedesk/tradedesk/ui/components/fills"
	"github.com/tradedesk/tradedesk/ui/components/funding"
	"github.com/tradedesk/tradedesk/ui/components/history"
	"github.com/tradedesk/tradedesk/ui/components/instrument"
	"github.com/tradedesk/tradedesk/ui/components/trades"
	"github.com/tradedesk/tradedesk/ui/components/transfer"
	"github.com/tradedesk/tradedesk/ui/components/transfers"
)

// newMarketGroup is the chart and the current instrument's details.
func newMarketGroup(c *common.Common, ex api.Exchange, chart *chart.Pane) *common.Group {
	return common.NewGroup(c, "Market", chart, instrument.New(c, ex))
}

// newActivityGroup is the fills, the order history, the funding payments, the transfers, the
// equity curve, the round trips and the daily PnL, then the views in more (the algorithms); bell
// rings the terminal bell on new fills.
func newActivityGroup(c *common.Common, ex api.Exchange, bell bool, more ...common.Pane) *common.Group {
	return common.NewGroup(c, "Activity", append([]common.Pane{fills.New(c, ex, bell), history.New(c, ex), funding.New(c, ex),
		transfers.New(c, ex), equity.NewFed(c, ex), trades.New(c, ex), daily.New(c, common.ExchangeAddress(ex) != "")}, more...)...)
}

// newFundsGroup is the balances and collateral, the transfer form and the broker approvals.
func newFundsGroup(c *common.Common, ex api.Exchange) *common.Group {
	return common.NewGroup(c, "Funds", balances.New(c, common.ExchangeAddress(ex) != ""), transfer.New(c, ex), brokers.New(c, ex))
}
