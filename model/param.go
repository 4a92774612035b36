package model

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Param declares one option a kind takes (Kind.Params), the way
// scikit-learn declares an estimator's parameter constraints: which
// option, what it means for the kind, its default and the values it
// accepts. Fit refuses an option set that the kind does not declare, and
// a value its declaration does not accept, naming the option.
type Param struct {
	// Name is the option's name (Option.Name): the fit command's flag
	// without its dashes.
	Name string
	// Doc says what the option means for the kind (Beta, say, is a
	// different strength in each kind that takes it).
	Doc string
	// Default says what an unset option (its zero value) means.
	Default string
	// Choices are the values of a text option, as shown; Fit also takes
	// the other spellings the kind's package parses (such as "KL").
	Choices []string
	// Range bounds a number option. Its zero value means unset and is
	// not checked, except where the command line says it was given.
	Range Interval
	// Required makes an unset option an error.
	Required bool
	// SeedWords marks an option that steers seed words: set without any,
	// it is an error.
	SeedWords bool
	// accept checks a text value when its spellings are more than
	// Choices (nil: one of Choices exactly).
	accept func(string) error
}

// Interval is a range of numbers from Lo to Hi, each end included unless
// open; Whole says the numbers are integers. NaN is in no interval.
type Interval struct {
	Lo, Hi         float64
	LoOpen, HiOpen bool
	Whole          bool
}

// Contains reports whether v is in r.
func (r Interval) Contains(v float64) bool {
	return !math.IsNaN(v) && (v > r.Lo || (!r.LoOpen && v == r.Lo)) && (v < r.Hi || (!r.HiOpen && v == r.Hi))
}

// String describes r as the values an option wants: "a number ≥ 1", "a
// finite number > 0", "a number from 1e-06 to 1e+06".
func (r Interval) String() string {
	op := "≥"
	if r.LoOpen {
		op = ">"
	}
	switch {
	case math.IsInf(r.Hi, 1) && r.Whole:
		return fmt.Sprintf("a number %s %g", op, r.Lo)
	case math.IsInf(r.Hi, 1):
		return fmt.Sprintf("a finite number %s %g", op, r.Lo)
	}
	return fmt.Sprintf("a number from %g to %g", r.Lo, r.Hi)
}

// atLeast is the whole numbers from lo.
func atLeast(lo int) Interval {
	return Interval{Lo: float64(lo), Hi: math.Inf(1), HiOpen: true, Whole: true}
}

// positive is the finite numbers above 0.
func positive() Interval { return Interval{Hi: math.Inf(1), LoOpen: true, HiOpen: true} }

// strengths is the range of a seed word's strength.
func strengths() Interval { return Interval{Lo: MinStrength, Hi: MaxStrength} }

// Option is one field of Options that a kind may take, as a Param names
// it: the fit command's flag, declared once.
type Option struct {
	// Name is the fit command's flag without its dashes, and Short its
	// one-letter form ("k" for topics), if any.
	Name, Short string
	// Usage says in a line what the option is, whatever the kind.
	Usage string
	// field returns the option's field in an Options.
	field func(o *Options) any
	// what names a value of a text option in errors ("loss").
	what string
	// topics marks a number of topics, which a corpus of n documents
	// and m terms bounds by min(n, m).
	topics bool
}

// Field returns a pointer to the option's field in o: an *int, *uint64,
// *float64, *string or *bool.
func (p Option) Field(o *Options) any { return p.field(o) }

// Flag names the option as the fit command's flag: "--loss", "-k/--topics".
func (p Option) Flag() string {
	if p.Short != "" {
		return "-" + p.Short + "/--" + p.Name
	}
	return "--" + p.Name
}

// AllOptions lists the options kinds take, each once, in the order of the
// fit command's help.
func AllOptions() []Option {
	return []Option{
		{Name: "topics", Short: "k", Usage: "number of topics", topics: true, field: func(o *Options) any { return &o.K }},
		{Name: "seed", Usage: "seed of every random choice", field: func(o *Options) any { return &o.Seed }},
		{Name: "max-iter", Usage: "maximum iterations", field: func(o *Options) any { return &o.MaxIter }},
		{Name: "tol", Usage: "stopping tolerance", field: func(o *Options) any { return &o.Tol }},
		{Name: "loss", Usage: "the loss (divergence) minimised", what: "loss", field: func(o *Options) any { return &o.Loss }},
		{Name: "init", Usage: "initialisation", what: "initialisation", field: func(o *Options) any { return &o.Init }},
		{Name: "gathers", Usage: "precision of the factor rows the updates gather", what: "gathers precision", field: func(o *Options) any { return &o.Gathers }},
		{Name: "weighting", Usage: "error weighting of the labeled documents", what: "weighting", field: func(o *Options) any { return &o.Weighting }},
		{Name: "method", Usage: "learning method", what: "learning method", field: func(o *Options) any { return &o.Method }},
		{Name: "subtopics", Usage: "subtopics per theme", topics: true, field: func(o *Options) any { return &o.Subtopics }},
		{Name: "mode", Usage: "training mode", what: "training mode", field: func(o *Options) any { return &o.Mode }},
		{Name: "no-theme-background", Usage: "separated training: a theme's labeled documents may not use its background topic", field: func(o *Options) any { return &o.NoThemeBackground }},
		{Name: "new-topics", Usage: "extra topics allowed only in unlabeled documents", field: func(o *Options) any { return &o.NewTopics }},
		{Name: "lambda", Usage: "weight of the supervision term", field: func(o *Options) any { return &o.Lambda }},
		{Name: "beta", Usage: "the seed words' default strength", field: func(o *Options) any { return &o.Beta }},
		{Name: "seed-rank", Usage: "hold every seed word among its topic's this many heaviest words", field: func(o *Options) any { return &o.SeedRank }},
		{Name: "hold-labels", Usage: "hold every labeled document to its labels", field: func(o *Options) any { return &o.HoldLabels }},
		{Name: "seed-mode", Usage: "how seed words steer their topics", what: "seed mode", field: func(o *Options) any { return &o.SeedMode }},
		{Name: "restarts", Usage: "seeds tried, keeping the best fit", field: func(o *Options) any { return &o.Restarts }},
		{Name: "readout", Usage: "how a model supervised by labels predicts", what: "readout", field: func(o *Options) any { return &o.Readout }},
		{Name: "auto", Usage: "choose the settings left unset by cross-validation over the labeled documents", field: func(o *Options) any { return &o.Auto }},
	}
}

// ParamsOf returns the options the kind named name takes (Kind.Params);
// for KindAuto, those the kinds it tries take, each once, less those that
// steer seed words (KindAuto takes none).
func ParamsOf(name string) ([]Param, error) {
	if name == KindAuto {
		var out []Param
		for _, kn := range SupervisedKinds() {
			k, _ := KindOf(kn)
			for _, p := range k.Params() {
				if !p.SeedWords && !slices.ContainsFunc(out, func(q Param) bool { return q.Name == p.Name }) {
					out = append(out, p)
				}
			}
		}
		return out, nil
	}
	k, err := KindOf(name)
	if err != nil {
		return nil, errUnknownKind(name, true)
	}
	return k.Params(), nil
}

// paramNamed returns the param of ps named name.
func paramNamed(ps []Param, name string) (Param, bool) {
	for _, p := range ps {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// isSet reports whether the field an Option.Field returned is set: not
// its zero value.
func isSet(v any) bool {
	switch x := v.(type) {
	case *int:
		return *x != 0
	case *uint64:
		return *x != 0
	case *float64:
		return *x != 0
	case *string:
		return *x != ""
	case *bool:
		return *x
	}
	return false
}

// number returns the value of a number field, and whether it is one.
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case *int:
		return float64(*x), true
	case *float64:
		return *x, true
	}
	return 0, false
}

// check checks the value v of the option opt against p, its declaration
// for kind: a number in p.Range, a text among p's choices. The error
// names the option and what it wants; an unset value is not checked.
func (p Param) check(kind string, opt Option, v any) error {
	if x, ok := number(v); ok {
		if !p.Range.Contains(x) {
			return fmt.Errorf("model: %s %s: want %s", opt.Flag(), strconv.FormatFloat(x, 'g', -1, 64), p.Range)
		}
		return nil
	}
	s, ok := v.(*string)
	if !ok || len(p.Choices) == 0 {
		return nil
	}
	ok = slices.Contains(p.Choices, *s)
	if p.accept != nil {
		ok = p.accept(*s) == nil
	}
	if !ok {
		return fmt.Errorf("model: unknown %s %q for %s models (%s: want %s)", opt.what, *s, kind, opt.Flag(), strings.Join(p.Choices, ", "))
	}
	return nil
}

// checkOptions validates o for the kind k against its Params: an option
// set that k does not take, a value out of its range or not among its
// choices, a required option unset and one that steers seed words
// without any are errors naming the option, and so is a number of topics
// beyond min(n, m) when the documents n and terms m are known (n > 0).
// labeled says whether the fit has labeled documents; supervision k does
// not take is an error too. given names options set explicitly, whose
// zero is then a value to check rather than unset (CheckOptions).
func checkOptions(k Kind, o Options, labeled bool, n, m int, given ...string) error {
	params := k.Params()
	for _, opt := range AllOptions() {
		v := opt.field(&o)
		p, ok := paramNamed(params, opt.Name)
		set := isSet(v) || slices.Contains(given, opt.Name)
		switch {
		case !ok && set:
			return errNotTaken(k, opt)
		case !ok:
		case !set && p.Required:
			return fmt.Errorf("model: %s models need %s (%s)", k.Name(), opt.Flag(), p.Doc)
		case !set:
		default:
			if err := p.check(k.Name(), opt, v); err != nil {
				if _, num := number(v); num && slices.Contains(given, opt.Name) {
					err = fmt.Errorf("%w (leave the flag out for the kind's default)", err)
				}
				return err
			}
			if p.SeedWords && !seeded(o.Anchors) {
				return fmt.Errorf("model: %s applies to seed words, and there are none (%s: %s)", opt.Flag(), k.Name(), p.Doc)
			}
			if x, _ := number(v); opt.topics && n > 0 {
				if err := checkTopics(opt.Flag(), int(x), n, m); err != nil {
					return err
				}
			}
		}
	}
	t := k.Takes()
	switch {
	case labeled && !t.Labels:
		var by []string
		for _, kk := range kinds() {
			if kk.Takes().Labels {
				by = append(by, kk.Name())
			}
		}
		return fmt.Errorf("model: %s models learn from no labels; these do: %s", k.Name(), strings.Join(by, ", "))
	case seeded(o.Anchors) && !t.Seeds:
		return fmt.Errorf("model: %s models take no seed words: %s", k.Name(), t.How)
	case excludes(o.Anchors) && !t.Exclusions:
		return fmt.Errorf("model: %s models take no exclusion words: %s", k.Name(), t.How)
	}
	return nil
}

// errNotTaken is the error of an option set for a kind that does not
// take it.
func errNotTaken(k Kind, opt Option) error {
	var names []string
	for _, p := range k.Params() {
		for _, o := range AllOptions() {
			if o.Name == p.Name {
				names = append(names, o.Flag())
			}
		}
	}
	return fmt.Errorf("model: option %s does not apply to %s models (%s takes: %s)", opt.Flag(), k.Name(), k.Name(), strings.Join(names, ", "))
}

// excludes reports whether any anchor has exclusion words.
func excludes(anchors []Anchor) bool {
	for _, a := range anchors {
		if len(a.Exclude) > 0 {
			return true
		}
	}
	return false
}

// kindOptions returns, for one kind that KindAuto tries, the options of
// o that it takes (o.Kind is KindAuto), with its supervision.
func kindOptions(o Options, kind Kind) Options {
	c := Options{Kind: kind.Name(), Supervision: o.Supervision, LabelsFromCorpus: o.LabelsFromCorpus, Progress: o.Progress}
	for _, opt := range AllOptions() {
		if p, ok := paramNamed(kind.Params(), opt.Name); ok && (!p.SeedWords || seeded(o.Anchors)) {
			copyField(opt.field(&c), opt.field(&o))
		}
	}
	return c
}

// copyField sets the field dst to the value of src, two pointers that
// Option.Field returned for the same option.
func copyField(dst, src any) {
	switch d := dst.(type) {
	case *int:
		*d = *src.(*int)
	case *uint64:
		*d = *src.(*uint64)
	case *float64:
		*d = *src.(*float64)
	case *string:
		*d = *src.(*string)
	case *bool:
		*d = *src.(*bool)
	}
}

// checkAuto validates the options of o, whose kind is KindAuto: each
// option set must be one some kind it tries takes, and each such kind's
// options (kindOptions) valid for it.
func checkAuto(o Options, labeled bool, n, m int, given ...string) error {
	switch {
	case !labeled:
		return fmt.Errorf("model: kind %q chooses among the kinds that learn from labels (%s): it needs labeled documents", KindAuto, strings.Join(SupervisedKinds(), ", "))
	case !o.Auto:
		return fmt.Errorf("model: kind %q needs the automatic configuration (Options.Auto)", KindAuto)
	case len(o.Anchors) > 0:
		return errAutoAnchors
	}
	params, _ := ParamsOf(KindAuto)
	for _, opt := range AllOptions() {
		if _, ok := paramNamed(params, opt.Name); !ok && (isSet(opt.field(&o)) || slices.Contains(given, opt.Name)) {
			return fmt.Errorf("model: option %s does not apply to any kind %q tries (%s)", opt.Flag(), KindAuto, strings.Join(SupervisedKinds(), ", "))
		}
	}
	for _, name := range SupervisedKinds() {
		k, _ := KindOf(name)
		var takes []string
		for _, g := range given {
			if _, ok := paramNamed(k.Params(), g); ok {
				takes = append(takes, g)
			}
		}
		if err := checkOptions(k, kindOptions(o, k), labeled, n, m, takes...); err != nil {
			return fmt.Errorf("model: kind %q tries %s: %s", KindAuto, name, strings.TrimPrefix(err.Error(), "model: "))
		}
	}
	return nil
}

// CheckOptions validates o as Fit will before it reads the corpus: the
// kind, the options it takes and their values, and the supervision it is
// given (labels are taken to be there when o.LabelsFromCorpus asks for
// them). The bounds the corpus sets, such as k at most the number of
// documents, are left to Fit. given names the options set explicitly,
// such as the flags given on a command line: a given 0, which Fit would
// read as the kind's default, is checked as a value.
func CheckOptions(o Options, given ...string) error {
	labeled := o.labeled() || o.LabelsFromCorpus
	if err := checkAnchors(o.Anchors); err != nil {
		return err
	}
	if err := checkWarm(o); err != nil {
		return err
	}
	k, err := kindOrAuto(o.Kind)
	switch {
	case err != nil:
		return err
	case k == nil:
		return checkAuto(o, labeled, 0, 0, given...)
	}
	return checkOptions(k, o, labeled, 0, 0, given...)
}

// seedParam declares Options.Seed, which every kind takes.
func seedParam() Param {
	return Param{Name: "seed", Doc: "seeds every random choice of the fit: the same seed, the same model", Default: "0"}
}

// maxIterParam declares Options.MaxIter: doc says what an iteration is.
func maxIterParam(doc string, def int) Param {
	return Param{Name: "max-iter", Doc: doc, Default: strconv.Itoa(def), Range: atLeast(1)}
}

// tolParam declares Options.Tol: doc says what stops the fit.
func tolParam(doc string, def float64) Param {
	return Param{Name: "tol", Doc: doc, Default: strconv.FormatFloat(def, 'g', -1, 64), Range: positive()}
}

// seedRankParam declares Options.SeedRank (nmf and tsnmf).
func seedRankParam() Param {
	return Param{Name: "seed-rank", SeedWords: true, Range: atLeast(1), Default: "0: off",
		Doc: "holds every seed word among its topic's this many heaviest words (a projection after each update, as exclusion words are held at zero); off, a seed word pulls its topic by its pseudo-document alone and a word common to many documents may stay far down"}
}

// holdLabelsParam declares Options.HoldLabels (ssnmf and corex, whose
// fits do not hold their labeled documents by construction); how says
// how the kind holds them.
func holdLabelsParam(how string) Param {
	return Param{Name: "hold-labels", Default: "off",
		Doc: "holds every labeled document to its labels, so that it is predicted with them: " + how}
}

// readoutParam declares Options.Readout for a kind that predicts labels
// (nmf: the names of its seeded topics).
func readoutParam() Param {
	return Param{Name: "readout", Choices: Readouts(), Default: "chosen by auto, else native",
		Doc: "how the model turns a document into label scores: native, the kind's own rule; topics, a logistic regression on the topic weights; terms+topics, a linear SVM on the terms beside the topic weights (trained on the labeled documents, or on those the seed words label)"}
}

// autoParam declares Options.Auto for a kind with an automatic
// configuration.
func autoParam() Param {
	return Param{Name: "auto",
		Doc:     fmt.Sprintf("with labeled documents, choose the settings left unset (and the readout) by %d-fold cross-validation over them, the fewest topics within one standard error of the best; without labels, or out of core, the settings are fitted as they are", AutoFolds),
		Default: "on in the fit command (off in Options)"}
}
