package model

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/sparse"
)

// Kind is one model kind: its name and what it is, the text pipeline it
// is fitted with by default, the supervision it learns from, and, behind
// Fit, how it is fitted, saved and loaded. Each kind is one value of this
// package in a file of its own (nmfmodel.go, tsnmfmodel.go, …), listed
// once in kinds; no other code knows a kind by its name. KindOf returns
// the kind of a name, Kinds their names.
type Kind interface {
	// Name is the kind's name, the Options.Kind that selects it.
	Name() string
	// Doc says in a paragraph what the kind is.
	Doc() string
	// Params declares the options the kind takes; Fit refuses the others
	// when set.
	Params() []Param
	// Preset names the text pipeline (vectorize.PipelinePreset) the kind
	// is fitted with unless told otherwise.
	Preset() string
	// Takes says what supervision the kind learns from in memory.
	Takes() Takes

	// fit fits a model of the kind on d with the settings of o (validated
	// and without its supervision or progress callback, which d holds).
	fit(ctx context.Context, d *data, o Options) (Model, Info, error)
	// save returns what the model file holds of m, a model of the kind:
	// its parameters (written as JSON) and matrices.
	save(m Model) (params any, mats map[string]*mat.Dense, err error)
	// load rebuilds a model of the kind from what save returned.
	load(params json.RawMessage, mats map[string]*mat.Dense, vocab []string) (Model, error)
}

// Takes is the supervision a kind learns from.
type Takes struct {
	// Labels, Seeds and Exclusions say whether the kind takes labeled
	// documents, seed words and exclusion words (see Anchor).
	Labels, Seeds, Exclusions bool
	// How says in a sentence or two how the supervision steers it.
	How string
}

// data is what an in-memory fit takes besides its options: the documents
// × terms matrix, its vocabulary, the supervision (Labels, when given,
// has one entry per row of x) and where to report progress (never nil).
type data struct {
	x      *sparse.CSR
	vocab  []string
	sup    Supervision
	report progress.Func
}

// kinds lists the kinds, one line each: the order of Kinds, and the
// order in which KindAuto tries those with an automatic configuration.
func kinds() []Kind {
	return []Kind{
		tsnmfKind{},
		ssnmfKind{},
		themeKind{},
		corexKind{},
		nmfKind{},
		ldaKind{},
	}
}

// Kinds lists the names of the model kinds Fit knows, in a stable order.
func Kinds() []string {
	var out []string
	for _, k := range kinds() {
		out = append(out, k.Name())
	}
	return out
}

// KindOf returns the kind named name; the error lists the kinds.
func KindOf(name string) (Kind, error) {
	for _, k := range kinds() {
		if k.Name() == name {
			return k, nil
		}
	}
	return nil, errUnknownKind(name, false)
}

// errUnknownKind is the error of an unknown kind name, listing the kinds
// (and KindAuto where auto says it is taken).
func errUnknownKind(name string, auto bool) error {
	want := Kinds()
	if auto {
		want = append(want, "or "+KindAuto)
	}
	return fmt.Errorf("model: unknown kind %q (want %s)", name, strings.Join(want, ", "))
}

// kindOrAuto returns the kind named name, or nil for KindAuto.
func kindOrAuto(name string) (Kind, error) {
	if name == KindAuto {
		return nil, nil
	}
	k, err := KindOf(name)
	if err != nil {
		return nil, errUnknownKind(name, true)
	}
	return k, nil
}
