package model

import (
	"math"
	"strings"
	"testing"
)

// After the first fold the race stops a candidate only when it is further
// behind the best of its own kind than the rule's tolerance plus RaceZ
// standard errors: far behind on many documents, not a little behind, nor
// far behind on few documents, nor behind another kind's best.
func TestRaceStop(t *testing.T) {
	fold := func(n int) cvFold { return cvFold{test: make([]int, n)} }
	settings := []Options{{Kind: KindTSNMF}, {Kind: KindTSNMF}, {Kind: KindSSNMF}}
	cases := []struct {
		name string
		test int
		accs [][]float64 // per setting, per readout
		want [][]bool    // alive after the first fold
	}{
		{"far behind on many documents", 2500,
			[][]float64{{80, 90.5, 94}, {93.5, 93, 94.2}, {60, 61, 62}},
			[][]bool{{false, false, true}, {true, true, true}, {true, true, true}}},
		{"far behind on few documents", 40,
			[][]float64{{80, 90, 94}, {93, 93, 94}, {60, 61, 62}},
			[][]bool{{true, true, true}, {true, true, true}, {true, true, true}}},
		{"every readout of a setting behind", 2500,
			[][]float64{{94, 94.5, 95}, {70, 71, 72}, {60, 61, 62}},
			[][]bool{{true, true, true}, {false, false, false}, {true, true, true}}},
	}
	for _, tc := range cases {
		r := &racer{cv: []cvFold{fold(tc.test), fold(tc.test), fold(tc.test)}, readouts: Readouts()}
		res := make([][]raceResult, len(settings))
		alive := make([][]bool, len(settings))
		stopped := make([][]string, len(settings))
		for i := range settings {
			res[i] = []raceResult{{acc: tc.accs[i], done: true}, {}, {}}
			alive[i] = []bool{true, true, true}
			stopped[i] = make([]string, 3)
		}
		r.stop(settings, res, alive, stopped, 1)
		for i := range settings {
			for q := range alive[i] {
				if alive[i][q] != tc.want[i][q] {
					t.Errorf("%s: setting %d readout %s alive %v, want %v", tc.name, i, Readouts()[q], alive[i][q], tc.want[i][q])
				}
				if alive[i][q] == (stopped[i][q] != "") {
					t.Errorf("%s: setting %d readout %s alive %v with reason %q", tc.name, i, Readouts()[q], alive[i][q], stopped[i][q])
				}
			}
		}
	}
}

// After the second fold the race pools the two folds' held-out documents:
// a candidate too close to its leader to stop on one fold's documents is
// stopped when it stays as far behind on two, and one stopped before is
// left as it was.
func TestRaceStopPooled(t *testing.T) {
	const n = 2500
	r := &racer{cv: []cvFold{{test: make([]int, n)}, {test: make([]int, n)}, {test: make([]int, n)}}, readouts: Readouts()}
	settings := []Options{{Kind: KindTSNMF}}
	// native far behind (stopped after fold 1), topics 3.2 points behind
	// on each fold, terms+topics the leader.
	res := [][]raceResult{{{acc: []float64{80, 91, 94.2}, done: true}, {acc: []float64{math.NaN(), 91.2, 94.4}, done: true}, {}}}
	alive := [][]bool{{true, true, true}}
	stopped := [][]string{make([]string, 3)}
	r.stop(settings, res, alive, stopped, 1)
	if alive[0][0] || !alive[0][1] || !alive[0][2] {
		t.Fatalf("after fold 1: alive %v, want only native stopped", alive[0])
	}
	first := stopped[0][0]
	r.stop(settings, res, alive, stopped, 2)
	if alive[0][1] || !alive[0][2] {
		t.Errorf("after folds 1–2: alive %v, want topics stopped and terms+topics alive", alive[0])
	}
	if !strings.HasPrefix(stopped[0][1], "stopped after folds 1–2 of 3") {
		t.Errorf("topics stopped with %q", stopped[0][1])
	}
	if stopped[0][0] != first {
		t.Errorf("native's reason changed from %q to %q", first, stopped[0][0])
	}
}

// A candidate the race stopped is never chosen, even when its one fold
// scored higher than the chosen candidate's mean, and it is kept in the
// report with the fold it was scored on.
func TestChooseSkipsStopped(t *testing.T) {
	s := &Search{Candidates: []Candidate{
		{Options: Options{Kind: KindTSNMF}, Topics: 5, Estimate: newEstimate([]float64{90, 91, 92})},
		{Options: Options{Kind: KindTSNMF}, Topics: 2, Estimate: newEstimate([]float64{99}), Stopped: "stopped after fold 1 of 3"},
	}}
	s.choose("")
	if s.Chosen != 0 || s.Best != 0 {
		t.Errorf("chosen %d, best %d; want the candidate scored on every fold", s.Chosen, s.Best)
	}
	b, err := s.Candidates[1].MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"stopped":"stopped after fold 1 of 3"`) || !strings.Contains(string(b), `"folds":[99]`) {
		t.Errorf("stopped candidate's JSON %s", b)
	}
}
