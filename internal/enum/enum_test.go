package enum

import (
	"encoding/json"
	"strings"
	"testing"
)

type color uint8

var colorNames = []string{"red", "green", "blue"}

func (c color) MarshalText() ([]byte, error)  { return MarshalText(c, colorNames, "color") }
func (c *color) UnmarshalJSON(b []byte) error { return UnmarshalJSON(b, c, colorNames, "color") }

func TestRoundTrip(t *testing.T) {
	type rec struct {
		C color `json:"c"`
	}
	for c := color(0); c < 3; c++ {
		b, err := json.Marshal(rec{c})
		if err != nil {
			t.Fatal(err)
		}
		if want := `{"c":"` + colorNames[c] + `"}`; string(b) != want {
			t.Errorf("%d encodes as %s, want %s", c, b, want)
		}
		var back rec
		if err := json.Unmarshal(b, &back); err != nil || back.C != c {
			t.Errorf("%s decodes as %d, %v", b, back.C, err)
		}
	}
}

func TestLegacyIntegers(t *testing.T) {
	var c color
	if err := json.Unmarshal([]byte(" 2 "), &c); err != nil || c != 2 {
		t.Errorf("2 decodes as %d, %v", c, err)
	}
}

func TestErrors(t *testing.T) {
	if _, err := json.Marshal(color(3)); err == nil || !strings.Contains(err.Error(), "color 3 has no name") {
		t.Errorf("marshal of an unnamed value: %v", err)
	}
	for in, want := range map[string]string{
		`"purple"`: `unknown color "purple" (want red, green or blue)`,
		`3`:        `unknown color 3 (want red, green or blue)`,
		`-1`:       `unknown color -1`,
		`1.5`:      `unknown color 1.5`,
		`true`:     `unknown color true`,
	} {
		var c color
		err := json.Unmarshal([]byte(in), &c)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one containing %q", in, err, want)
		}
	}
}

func TestNameParse(t *testing.T) {
	if got := Name(color(1), colorNames, "color"); got != "green" {
		t.Errorf("Name(1) = %q", got)
	}
	if got := Name(color(9), colorNames, "color"); got != "color(9)" {
		t.Errorf("Name(9) = %q", got)
	}
	if c, err := Parse[color]("blue", colorNames, "color"); err != nil || c != 2 {
		t.Errorf("Parse(blue) = %d, %v", c, err)
	}
	if _, err := Parse[color]("mauve", colorNames, "color"); err == nil || err.Error() != `unknown color "mauve" (want red, green or blue)` {
		t.Errorf("Parse(mauve): %v", err)
	}
}
