package record

import "testing"

// TestGroupOf: a child id (ChildCloid) names its group; a bare UUID never does, even when its last
// group is all digits (a plain order was taken for a scale's rung so, and X on it offered the
// instrument's orders instead of the group's), nor does a number with a leading zero.
func TestGroupOf(t *testing.T) {
	const parent = "9596fa2e-476e-4942-af49-2e27aefc883d"
	for _, n := range []int{1, 2, 10, 250} {
		child, err := ChildCloid(parent, n)
		if err != nil {
			t.Fatal(err)
		}
		if got := GroupOf(child); got != parent {
			t.Errorf("GroupOf(%q) = %q, want %q", child, got, parent)
		}
	}
	for _, id := range []string{
		"e4bbe7c5-ff87-4a2f-9919-828349666648", // a UUID whose last group is all digits
		"922BAD5E-D7B5-443D-9BEB-982788751570",
		parent,
		parent + "-01",
		parent + "-",
		"-3",
		"plain",
	} {
		if got := GroupOf(id); got != "" {
			t.Errorf("GroupOf(%q) = %q, want none", id, got)
		}
	}
	if got := GroupOf("scale-abc-3"); got != "scale-abc" {
		t.Errorf("GroupOf of a named parent's child = %q, want scale-abc", got)
	}
}
