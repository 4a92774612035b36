package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/semitopic/semitopic/model"
)

// registerModelOptions adds fit's flag of every model option
// (model.AllOptions), its help naming the kinds that take it. The
// automatic configuration is on unless told otherwise, where the kind
// takes it (see modelOptionsGiven).
func registerModelOptions(f *pflag.FlagSet, o *model.Options) {
	for _, opt := range model.AllOptions() {
		usage := opt.Usage + " (" + strings.Join(kindsTaking(opt.Name), ", ") + ")"
		switch p := opt.Field(o).(type) {
		case *int:
			f.IntVarP(p, opt.Name, opt.Short, 0, usage)
		case *uint64:
			f.Uint64VarP(p, opt.Name, opt.Short, 0, usage)
		case *float64:
			f.Float64VarP(p, opt.Name, opt.Short, 0, usage)
		case *string:
			f.StringVarP(p, opt.Name, opt.Short, "", usage)
		case *bool:
			f.BoolVarP(p, opt.Name, opt.Short, opt.Name == "auto", usage)
		}
	}
}

// modelOptionsGiven returns the model options whose flags cmd was given,
// and sets o.Auto to its default where it was not: on for a kind that
// takes it, off for one that does not.
func modelOptionsGiven(cmd *cobra.Command, o *model.Options, params []model.Param) []string {
	var given []string
	for _, opt := range model.AllOptions() {
		if cmd.Flags().Changed(opt.Name) {
			given = append(given, opt.Name)
		}
	}
	if !slices.Contains(given, "auto") {
		o.Auto = slices.ContainsFunc(params, func(p model.Param) bool { return p.Name == "auto" })
	}
	return given
}

// kindsTaking lists the kinds that take the option name.
func kindsTaking(name string) []string {
	var out []string
	for _, kn := range model.Kinds() {
		k, _ := model.KindOf(kn)
		if slices.ContainsFunc(k.Params(), func(p model.Param) bool { return p.Name == name }) {
			out = append(out, kn)
		}
	}
	return out
}

// optionFlag names an option as fit's flag ("-k/--topics").
func optionFlag(name string) string {
	for _, opt := range model.AllOptions() {
		if opt.Name == name {
			return opt.Flag()
		}
	}
	return "--" + name
}

// kindsHelp lists the kinds for fit --help, from their declarations:
// what each learns from and the options it takes, a line or two each
// (docs/cli.md has what each kind is and what each option means).
func kindsHelp() string {
	var b strings.Builder
	b.WriteString("Kinds (--kind), what each learns from, and the options each takes:\n")
	width := len(model.KindAuto)
	for _, kn := range model.Kinds() {
		width = max(width, len(kn))
	}
	pad := strings.Repeat(" ", width+4)
	for _, kn := range model.Kinds() {
		k, _ := model.KindOf(kn)
		var takes []string
		for _, t := range []struct {
			ok   bool
			what string
		}{{k.Takes().Labels, "labels"}, {k.Takes().Seeds, "seed words"}, {k.Takes().Exclusions, "exclusion words"}} {
			if t.ok {
				takes = append(takes, t.what)
			}
		}
		if len(takes) == 0 {
			takes = []string{"nothing (unsupervised)"}
		}
		var flags []string
		for _, p := range k.Params() {
			flags = append(flags, optionFlag(p.Name))
		}
		fmt.Fprintf(&b, "  %-*s  %s\n", width, kn, wrap(strings.Join(takes, ", ")+"; "+strings.Join(flags, ", "), 78-len(pad), pad))
	}
	fmt.Fprintf(&b, "  %-*s  %s\n", width, model.KindAuto, wrap("labels: "+strings.Join(model.SupervisedKinds(), ", ")+
		" each configured by cross-validation, the best kept", 78-len(pad), pad))
	return b.String()
}

// wrap breaks s into lines of at most width characters, every line but
// the first starting with indent.
func wrap(s string, width int, indent string) string {
	var b strings.Builder
	n := 0
	for i, w := range strings.Fields(s) {
		l := len([]rune(w))
		if i > 0 && n+1+l > width {
			b.WriteString("\n" + indent)
			n = 0
		} else if i > 0 {
			b.WriteByte(' ')
			n++
		}
		b.WriteString(w)
		n += l
	}
	return b.String()
}
