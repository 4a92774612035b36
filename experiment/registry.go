package experiment

import (
	"github.com/semitopic/semitopic/experiment/corex20ng"
	"github.com/semitopic/semitopic/experiment/labelefficiency"
	"github.com/semitopic/semitopic/experiment/languages"
	"github.com/semitopic/semitopic/experiment/ssnmfrepro"
	"github.com/semitopic/semitopic/experiment/themenmf"
	"github.com/semitopic/semitopic/experiment/tsnmfreuters"
)

// registry lists every experiment, one sub-package per paper; All sorts
// them.
func registry() []Experiment {
	return []Experiment{
		tsnmfreuters.Experiment(),
		corex20ng.Experiment(),
		themenmf.Experiment(),
		ssnmfrepro.Experiment20NG(),
		ssnmfrepro.ExperimentSynthetic(),
		labelefficiency.Experiment(),
		labelefficiency.SeedWordsExperiment(),
		labelefficiency.EstimateExperiment(),
		languages.Experiment(),
	}
}
