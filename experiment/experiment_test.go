package experiment

import "testing"

func TestRegistry(t *testing.T) {
	seen := map[string]bool{}
	for _, e := range All() {
		if e.Name == "" || e.Description == "" || e.Run == nil || seen[e.Name] {
			t.Errorf("bad or duplicate experiment %+v", e.Name)
		}
		seen[e.Name] = true
		if _, err := Find(e.Name); err != nil {
			t.Error(err)
		}
	}
	if _, err := Find("nope"); err == nil {
		t.Error("unknown experiment found")
	}
}
