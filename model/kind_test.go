package model

import (
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// Every kind's declarations are well formed: each names an option once,
// a text option lists its choices, a number option has a range, and the
// options every fit has (seed, max-iter) are there.
func TestKindDeclarations(t *testing.T) {
	if got, want := Kinds(), []string{KindTSNMF, KindSSNMF, KindTheme, KindCorEx, KindNMF, KindLDA}; !slices.Equal(got, want) {
		t.Errorf("Kinds() = %v, want %v", got, want)
	}
	names := map[string]Option{}
	for _, opt := range AllOptions() {
		if _, dup := names[opt.Name]; dup {
			t.Errorf("option %s declared twice", opt.Name)
		}
		names[opt.Name] = opt
	}
	for _, kn := range Kinds() {
		k, err := KindOf(kn)
		if err != nil || k.Name() != kn {
			t.Fatalf("KindOf(%q) = %v, %v", kn, k, err)
		}
		if k.Doc() == "" || k.Takes().How == "" || k.Preset() == "" {
			t.Errorf("%s: no doc, supervision or preset", kn)
		}
		seen := map[string]bool{}
		for _, p := range k.Params() {
			opt, ok := names[p.Name]
			switch {
			case !ok:
				t.Errorf("%s declares the unknown option %q", kn, p.Name)
				continue
			case seen[p.Name]:
				t.Errorf("%s declares %s twice", kn, p.Name)
			case p.Doc == "" || p.Default == "":
				t.Errorf("%s %s: no doc or default", kn, p.Name)
			}
			seen[p.Name] = true
			var o Options
			switch opt.Field(&o).(type) {
			case *string:
				if len(p.Choices) == 0 {
					t.Errorf("%s %s: a text option without choices", kn, p.Name)
				}
				for _, c := range p.Choices {
					if err := p.check(kn, opt, &c); err != nil {
						t.Errorf("%s %s: its own choice %q is refused: %v", kn, p.Name, c, err)
					}
				}
			case *int, *float64:
				if p.Range == (Interval{}) {
					t.Errorf("%s %s: a number option without a range", kn, p.Name)
				}
			}
		}
		for _, must := range []string{"seed", "max-iter"} {
			if !seen[must] {
				t.Errorf("%s does not declare %s", kn, must)
			}
		}
	}
	if _, err := KindOf("bert"); err == nil || !strings.Contains(err.Error(), strings.Join(Kinds(), ", ")) {
		t.Errorf("KindOf(bert): %v, want the kinds listed", err)
	}
	if got, want := SupervisedKinds(), []string{KindTSNMF, KindSSNMF, KindTheme, KindCorEx}; !slices.Equal(got, want) {
		t.Errorf("SupervisedKinds() = %v, want %v", got, want)
	}
	if got, want := OutOfCoreKinds(), []string{KindTSNMF, KindCorEx, KindNMF, KindLDA}; !slices.Equal(got, want) {
		t.Errorf("OutOfCoreKinds() = %v, want %v", got, want)
	}
}

// setOption sets the option opt of o to a value that reads as set: 1,
// true, or the kind's first choice (else "x").
func setOption(o *Options, opt Option, p Param) {
	switch f := opt.Field(o).(type) {
	case *int:
		*f = 1
	case *uint64:
		*f = 1
	case *float64:
		*f = 1
	case *bool:
		*f = true
	case *string:
		*f = "x"
		if len(p.Choices) > 0 {
			*f = p.Choices[0]
		}
	}
}

// An option a kind does not take is refused, naming the kind and the
// option, for every kind and option; one it takes, at a valid value, is
// not.
func TestCheckOptionsTaken(t *testing.T) {
	seeds := []Anchor{{Topic: "a", Words: []string{"w"}}}
	for _, kn := range Kinds() {
		k, _ := KindOf(kn)
		for _, opt := range AllOptions() {
			o := Options{Kind: kn}
			if k.Takes().Seeds {
				o.Anchors = seeds
			}
			if _, ok := paramNamed(k.Params(), "topics"); ok {
				o.K = 2
			}
			p, takes := paramNamed(k.Params(), opt.Name)
			setOption(&o, opt, p)
			err := checkOptions(k, o, false, 0, 0)
			switch {
			case takes && err != nil:
				t.Errorf("%s %s: %v", kn, opt.Flag(), err)
			case !takes && (err == nil || !strings.Contains(err.Error(), opt.Flag()) || !strings.Contains(err.Error(), kn+" models")):
				t.Errorf("%s %s: err = %v, want one naming the option and the kind", kn, opt.Flag(), err)
			}
		}
	}
}

// Values out of range or among no choice are refused naming the option
// and what it wants; an explicitly given zero is a value, checked, and the
// bounds of the corpus apply to the numbers of topics.
func TestCheckOptionsValues(t *testing.T) {
	for _, c := range []struct {
		o     Options
		given []string
		want  string
	}{
		{Options{Kind: KindNMF, K: -1}, nil, "-k/--topics -1: want a number ≥ 1"},
		{Options{Kind: KindNMF}, nil, "need -k/--topics"},
		{Options{Kind: KindNMF, K: 0}, []string{"topics"}, "-k/--topics 0: want a number ≥ 1 (leave the flag out"},
		{Options{Kind: KindNMF, K: 2, Tol: math.NaN()}, nil, "--tol NaN: want a finite number > 0"},
		{Options{Kind: KindNMF, K: 2, Tol: math.Inf(1)}, nil, "--tol +Inf"},
		{Options{Kind: KindCorEx, K: 2, Beta: 1e300}, nil, "--beta 1e+300: want a number from 1e-06 to 1e+06"},
		{Options{Kind: KindTheme, NewTopics: -1}, nil, "--new-topics -1: want a number ≥ 0"},
		{Options{Kind: KindTSNMF, Weighting: "double"}, nil, `unknown weighting "double" for tsnmf models (--weighting: want inverse, none)`},
		{Options{Kind: KindNMF, K: 2, Init: "label-mean"}, nil, "unknown initialisation"},
		{Options{Kind: KindLDA, K: 2, Beta: 2}, nil, "--beta applies to seed words, and there are none"},
		{Options{Kind: KindNMF, K: 2, LabelsFromCorpus: true}, nil, "nmf models learn from no labels"},
		{Options{Kind: KindTheme, Supervision: Supervision{Anchors: []Anchor{{Topic: "a", Words: []string{"w"}}}}}, nil, "not seed words"},
		{Options{Kind: KindAuto, Auto: true, LabelsFromCorpus: true, Method: "online"}, nil, `--method does not apply to any kind "auto" tries`},
		{Options{Kind: KindAuto, Auto: true, LabelsFromCorpus: true, Loss: "kl"}, nil, `"auto" tries ssnmf: unknown loss "kl"`},
		{Options{Kind: KindAuto, Auto: true}, nil, "needs labeled documents"},
		{Options{Kind: KindAuto, LabelsFromCorpus: true}, nil, "needs the automatic configuration"},
		{Options{Kind: "bert"}, nil, "or auto"},
	} {
		err := CheckOptions(c.o, c.given...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v given %v: err = %v, want %q", c.o, c.given, err, c.want)
		}
	}
	for _, o := range []Options{
		{Kind: KindNMF, K: 2, Init: "ACOL", Loss: "KL"},
		{Kind: KindTSNMF, Init: "label-mean", LabelsFromCorpus: true},
		{Kind: KindSSNMF, Loss: "(F, D)", LabelsFromCorpus: true},
		{Kind: KindTheme, Mode: "separate", Init: "BCOOL", NewTopics: 0, LabelsFromCorpus: true},
		{Kind: KindAuto, Auto: true, LabelsFromCorpus: true, K: 5, Beta: 3, Lambda: 2},
	} {
		if err := CheckOptions(o); err != nil {
			t.Errorf("%+v: %v", o, err)
		}
	}
	nmfKind := nmfKind{}
	if err := checkOptions(nmfKind, Options{Kind: KindNMF, K: 30}, false, 20, 100); err == nil || !strings.Contains(err.Error(), "20 documents") {
		t.Errorf("k beyond the documents: %v", err)
	}
	if err := checkOptions(themeKind{}, Options{Kind: KindTheme, Subtopics: 30}, true, 100, 20); err == nil || !strings.Contains(err.Error(), "20 terms") {
		t.Errorf("subtopics beyond the terms: %v", err)
	}
}

// KindAuto hands each kind the options it takes, and none it does not.
func TestKindOptions(t *testing.T) {
	o := Options{Kind: KindAuto, Auto: true, K: 5, Seed: 7, Lambda: 2, Beta: 3, Subtopics: 2, Weighting: "none", Readout: ReadoutTopics}
	for _, c := range []struct {
		kind Kind
		want Options
	}{
		{tsnmfKind{}, Options{Kind: KindTSNMF, Auto: true, K: 5, Seed: 7, Weighting: "none", Readout: ReadoutTopics}},
		{ssnmfKind{}, Options{Kind: KindSSNMF, Auto: true, K: 5, Seed: 7, Lambda: 2, Readout: ReadoutTopics}},
		{themeKind{}, Options{Kind: KindTheme, Auto: true, Seed: 7, Subtopics: 2, Readout: ReadoutTopics}},
		{corexKind{}, Options{Kind: KindCorEx, Auto: true, K: 5, Seed: 7, Beta: 3, Readout: ReadoutTopics}},
	} {
		if got := kindOptions(o, c.kind); !reflect.DeepEqual(got.recorded(), c.want) {
			t.Errorf("%s: %+v, want %+v", c.kind.Name(), got, c.want)
		}
	}
}
