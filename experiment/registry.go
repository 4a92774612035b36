package experiment

// registry lists every experiment; All sorts them.
func registry() []Experiment {
	return []Experiment{
		tsnmfReuters(),
		ssnmf20NG(),
		ssnmfSynthetic(),
	}
}
