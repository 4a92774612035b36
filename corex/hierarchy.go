package corex

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/semitopic/semitopic/sparse"
)

// Hierarchy is a stack of CorEx layers: layer 0 is fitted to the
// documents, and each further layer to the binary topic labels of the
// layer below it (paper §2.1, and the reference notebook's
// Corex(n_hidden=...).fit(model.labels)).
type Hierarchy struct {
	// Layers[0] is the topic model of the words; Layers[l] for l ≥ 1 has
	// the topics of Layers[l−1] as its terms.
	Layers []*Model
}

// FitHierarchy fits the first layer to X with cfg, then one layer per entry
// of upper, each with that many topics, on the labels (p(y|x) > 0.5) of the
// layer below. Upper layers take cfg's MaxIter, Tol, Restarts and Progress,
// the seed cfg.Seed + 1000·l, and no anchors or vocabulary. An upper layer
// may not have more topics than the layer below.
func FitHierarchy(ctx context.Context, X *sparse.CSR, cfg Config, upper ...int) (*Hierarchy, error) {
	first, err := Fit(ctx, X, cfg)
	if err != nil {
		return nil, fmt.Errorf("corex: hierarchy layer 1: %w", err)
	}
	h := &Hierarchy{Layers: []*Model{first}}
	for l, k := range upper {
		below := h.Layers[len(h.Layers)-1]
		if k < 1 || k > below.K {
			return nil, fmt.Errorf("corex: hierarchy layer %d: %d topics over the %d topics below; want 1 to %d", l+2, k, below.K, below.K)
		}
		up := Config{K: k, MaxIter: cfg.MaxIter, Tol: cfg.Tol, Restarts: cfg.Restarts, Progress: cfg.Progress,
			Seed: cfg.Seed + 1000*uint64(l+1)}
		m, err := Fit(ctx, below.Train.LabelMatrix(), up)
		if err != nil {
			return nil, fmt.Errorf("corex: hierarchy layer %d: %w", l+2, err)
		}
		h.Layers = append(h.Layers, m)
	}
	return h, nil
}

// WriteTree prints the hierarchy top down: each topic of the top layer,
// under it the topics of the layer below that belong to it (α ≥ 1),
// ranked by mutual information, down to the first layer's topics, which
// show their top words (by α·MI; a word whose absence is informative is
// marked with a leading "~"). Every node shows its TC in nats.
func (h *Hierarchy) WriteTree(w io.Writer, words int) error {
	if len(h.Layers) == 0 {
		return fmt.Errorf("corex: empty hierarchy")
	}
	bw := bufio.NewWriter(w)
	top := len(h.Layers) - 1
	var visit func(layer, j, depth int) error
	visit = func(layer, j, depth int) error {
		m := h.Layers[layer]
		indent := strings.Repeat("  ", depth)
		if layer == 0 {
			ws, err := m.TopWords(j, words, ByWeightedMI)
			if err != nil {
				return err
			}
			terms := make([]string, len(ws))
			for k, wd := range ws {
				t := wd.Term
				if t == "" {
					t = fmt.Sprintf("#%d", wd.Index)
				}
				if wd.Sign < 0 {
					t = "~" + t
				}
				terms[k] = t
			}
			_, err = fmt.Fprintf(bw, "%sL1-%d (TC %.3f): %s\n", indent, j, m.TCs[j], strings.Join(terms, ", "))
			return err
		}
		if _, err := fmt.Fprintf(bw, "%sL%d-%d (TC %.3f)\n", indent, layer+1, j, m.TCs[j]); err != nil {
			return err
		}
		children, err := m.TopWords(j, m.Terms, ByMI)
		if err != nil {
			return err
		}
		for _, c := range children {
			if err := visit(layer-1, c.Index, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	for j := 0; j < h.Layers[top].K; j++ {
		if err := visit(top, j, 0); err != nil {
			return err
		}
	}
	return bw.Flush()
}
