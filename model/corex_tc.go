package model

// TotalCorrelations returns each topic's total correlation in nats, in
// topic order (the quantity CorEx maximises; the model's total is their
// sum). Only CorEx has this figure; the HTML report charts it for models
// that implement this method.
func (c *CorEx) TotalCorrelations() []float64 {
	return append([]float64(nil), c.m.TCs...)
}
