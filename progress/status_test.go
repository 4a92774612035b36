package progress

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func TestStatusJSON(t *testing.T) {
	for s := Unknown; s <= FixedIterations; s++ {
		b, err := json.Marshal(Convergence{Status: s})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), `"status":"`+s.String()+`"`) {
			t.Errorf("%v: %s", s, b)
		}
		var back Convergence
		if err := json.Unmarshal(b, &back); err != nil || back.Status != s {
			t.Errorf("%s read back as %v, %v", b, back.Status, err)
		}
	}
	var c Convergence
	if err := json.Unmarshal([]byte(`{"status":"done"}`), &c); err == nil || !strings.Contains(err.Error(), `unknown fit status "done"`) {
		t.Errorf("unknown status: %v", err)
	}
	if _, err := json.Marshal(Convergence{Status: 9}); err == nil {
		t.Error("a status without a name was written")
	}
	if s := Status(9).String(); s != "Status(9)" {
		t.Errorf("String of a status without a name: %q", s)
	}
}

func TestConvergenceString(t *testing.T) {
	limit := Convergence{Status: IterationLimit, MaxIter: 200}.WithMeasure("relative decrease", 3e-3, 1e-4)
	for _, c := range []struct {
		c    Convergence
		want string
	}{
		{Convergence{}, "unknown"},
		{limit, "stopped at its iteration limit (200) before converging (relative decrease 0.003 ≥ tol 0.0001)"},
		{Convergence{Status: IterationLimit}, "stopped at its iteration limit before converging"},
		{Convergence{Status: Converged}.WithMeasure("relative decrease", 5e-5, 1e-4), "converged (relative decrease 5e-05 < tol 0.0001)"},
		{Convergence{Status: Cancelled, MaxIter: 3}, "cancelled before it ended"},
		{Convergence{Status: FixedIterations, MaxIter: 10}, "ran its fixed number of iterations (10) with no stopping rule"},
		// A measurement JSON cannot hold is left out.
		{Convergence{Status: Converged}.WithMeasure("relative decrease", math.NaN(), 1e-4), "converged"},
		{Convergence{Status: Converged}.WithMeasure("relative decrease", 1, math.Inf(1)), "converged"},
	} {
		if got := c.c.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.c, got, c.want)
		}
	}
}
