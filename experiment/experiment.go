package experiment

import (
	"fmt"
	"sort"
	"strings"

	"github.com/semitopic/semitopic/experiment/lab"
)

// Env is what an experiment runs with (see lab.Env).
type Env = lab.Env

// Experiment is one reproduction (see lab.Experiment).
type Experiment = lab.Experiment

// All returns the experiments in name order.
func All() []Experiment {
	all := registry()
	sort.Slice(all, func(i, j int) bool { return all[i].Name < all[j].Name })
	return all
}

// Find returns the named experiment.
func Find(name string) (Experiment, error) {
	var names []string
	for _, e := range All() {
		if e.Name == name {
			return e, nil
		}
		names = append(names, e.Name)
	}
	return Experiment{}, fmt.Errorf("unknown experiment %q (have: %s)", name, strings.Join(names, ", "))
}
