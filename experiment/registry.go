package experiment

// registry lists every experiment; All sorts them.
func registry() []Experiment {
	return []Experiment{
		tsnmfReuters(),
		corex20NG(),
		themeNMF(),
		ssnmf20NG(),
		ssnmfSynthetic(),
		labelEfficiency(),
	}
}
