package main

import tea "github.com/charmbracelet/bubbletea"

type m struct{}

func (m) Init() tea.Cmd { return nil }
func (x m) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok && k.String() == "q" {
		return x, tea.Quit
	}
	return x, nil
}
func (m) View() string { return "a static screen; q quits" }

func main() { _, _ = tea.NewProgram(m{}, tea.WithAltScreen(), tea.WithFPS(30)).Run() }
