package nmf

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// TransformConfig configures Transform.
type TransformConfig struct {
	// Loss is the loss H was fitted with.
	Loss Loss
	// Mask is an optional documents × k 0/1 matrix: a document may only
	// use the topics where its row is 1 (for example its labels' topics).
	Mask *mat.Dense
	// MaxIter and Tol bound the multiplicative updates of the KL loss
	// (defaults as in Config); the Frobenius solve is exact and ignores
	// them.
	MaxIter int
	Tol     float64
	// W0 is the optional start (documents × k) of the KL updates instead
	// of the constant √(mean(X)/k); it is copied.
	W0 *mat.Dense
	// AddEpsilon selects the SSNMF reference's convention for the KL
	// updates (see Config.AddEpsilon).
	AddEpsilon float64
	// PerDocument transforms each document alone under the KL loss, as a
	// batch of one: its own start √(mean(x_i)/k), updates and stopping
	// rule, so that a document's weights do not depend on the documents
	// transformed with it (a subset transforms as the same rows of the
	// whole). Without it the KL updates run on the whole batch at once,
	// from one start and with one stopping rule, as scikit-learn's
	// transform does. The Frobenius solve is per document either way.
	PerDocument bool
}

// Transform returns W (documents × k) for the documents X (documents ×
// terms, sparse or dense) with the fitted topics H fixed, under the loss
// they were fitted with (TransformConfig's defaults otherwise; see
// FixedH.Transform). It prepares H on every call; to transform many small
// batches with the same topics, prepare them once with NewFixedH.
func (r *Model) Transform(ctx context.Context, x Matrix) (*mat.Dense, error) {
	if r == nil || r.H == nil || r.H.IsEmpty() {
		return nil, fmt.Errorf("nmf: Transform: the model is not fitted")
	}
	f, err := NewFixedH(r.H)
	if err != nil {
		return nil, err
	}
	return f.Transform(ctx, x, TransformConfig{Loss: r.Loss})
}
