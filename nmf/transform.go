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
}

// Transform returns W (documents × k) for the documents X (documents ×
// terms, sparse or dense) given fixed topics H (k × terms).
//
// For the Frobenius loss each row is the exact non-negative least-squares
// solution w = argmin_{w ≥ 0} ‖x − wH‖², found by an active-set
// (Lawson–Hanson) solve on the k × k Gram matrix HHᵀ with the right-hand
// side Hxᵀ computed sparsely. For KL it runs multiplicative updates on W
// with H fixed from the constant start √(mean(X)/k) (as scikit-learn's
// transform). Topics forbidden by the mask are exactly zero. An all-zero X
// gives an all-zero W.
//
// Transform prepares H (NewFixedH) on every call; to transform many small
// batches with the same topics, prepare them once and call
// FixedH.Transform.
func Transform(ctx context.Context, x Matrix, h *mat.Dense, cfg TransformConfig) (*mat.Dense, error) {
	if h == nil || h.IsEmpty() {
		return nil, fmt.Errorf("nmf: Transform: H is empty")
	}
	f, err := NewFixedH(h)
	if err != nil {
		return nil, err
	}
	return f.Transform(ctx, x, cfg)
}
