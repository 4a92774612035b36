package main

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/semitopic/semitopic/internal/atomicfile"
	"github.com/semitopic/semitopic/model"
)

// cliDocsPath is the command-line reference, relative to the repository's
// root.
const cliDocsPath = "docs/cli.md"

// cliDocsCommand is the command that writes it.
const cliDocsCommand = "go run ./cmd/semitopic docs --out " + cliDocsPath

func newDocsCmd() *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:    "docs --out docs/cli.md",
		Short:  "Write the command-line reference (docs/cli.md) from the commands' and the kinds' definitions",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkOut("out", out, false, ".md"); err != nil {
				return err
			}
			return atomicfile.WriteFile(out, writeCLIDocs)
		},
	}
	cmd.Flags().StringVarP(&out, "out", "o", "", "Markdown file to write (.md)")
	return cmd
}

// writeCLIDocs writes the command-line reference: the kinds with the
// options each takes (from model's declarations), then every command with
// its description, usage, flags and examples (from their definitions).
func writeCLIDocs(w io.Writer) error {
	var b bytes.Buffer
	root := newRoot(io.Discard, io.Discard)
	cmds := documented(root)
	b.WriteString("# Command-line reference\n\n")
	fmt.Fprintf(&b, "Generated from the commands' and the model kinds' definitions by `%s`; a test fails when it is stale. Edit the definitions, not this file.\n\n", cliDocsCommand)
	b.WriteString("- [Model kinds and their options](#model-kinds-and-their-options)\n")
	for _, c := range cmds {
		fmt.Fprintf(&b, "- [%s](#%s)\n", c.CommandPath(), strings.ReplaceAll(c.CommandPath(), " ", "-"))
	}
	b.WriteString("\n")
	writeKindDocs(&b)
	for _, c := range cmds {
		writeCommandDocs(&b, c)
	}
	_, err := w.Write(b.Bytes())
	return err
}

// documented lists the commands below c that the reference describes:
// those shown in help, depth first.
func documented(c *cobra.Command) []*cobra.Command {
	var out []*cobra.Command
	for _, s := range c.Commands() {
		if !s.IsAvailableCommand() {
			continue
		}
		out = append(out, s)
		out = append(out, documented(s)...)
	}
	return out
}

// writeCommandDocs writes one command's section.
func writeCommandDocs(b *bytes.Buffer, c *cobra.Command) {
	fmt.Fprintf(b, "## %s\n\n%s.\n\n", c.CommandPath(), strings.TrimSuffix(c.Short, "."))
	fmt.Fprintf(b, "```text\n%s\n```\n\n", c.UseLine())
	if c.Long != "" {
		fmt.Fprintf(b, "```text\n%s\n```\n\n", strings.TrimSpace(c.Long))
	}
	if c.HasAvailableSubCommands() {
		b.WriteString("Commands:\n\n")
		for _, s := range c.Commands() {
			if s.IsAvailableCommand() {
				fmt.Fprintf(b, "- [%s](#%s): %s\n", s.Name(), strings.ReplaceAll(s.CommandPath(), " ", "-"), s.Short)
			}
		}
		b.WriteString("\n")
	}
	if f := c.LocalFlags(); f.HasAvailableFlags() {
		fmt.Fprintf(b, "Flags:\n\n```text\n%s```\n\n", f.FlagUsagesWrapped(0))
	}
	if c.Example != "" {
		fmt.Fprintf(b, "Examples:\n\n```text\n%s\n```\n\n", c.Example)
	}
}

// writeKindDocs writes the kinds' section: which kind takes which option,
// then each kind with its options' meaning, default and values.
func writeKindDocs(b *bytes.Buffer) {
	b.WriteString("## Model kinds and their options\n\n")
	b.WriteString("`fit --kind KIND` fits one of these kinds; `--kind auto` configures each kind that learns from labels (" +
		strings.Join(model.SupervisedKinds(), ", ") + ") automatically and keeps the best. A kind refuses an option it does not take, naming it; an option left out takes the kind's default, and one given must be in its range. The table gives each option's default per kind (— where the kind does not take it).\n\n")
	kinds := model.Kinds()
	b.WriteString("| option |")
	for _, k := range kinds {
		fmt.Fprintf(b, " `%s` |", k)
	}
	b.WriteString("\n| --- |" + strings.Repeat(" --- |", len(kinds)) + "\n")
	for _, opt := range model.AllOptions() {
		fmt.Fprintf(b, "| `%s` |", opt.Flag())
		for _, kn := range kinds {
			k, _ := model.KindOf(kn)
			cell := "—"
			for _, p := range k.Params() {
				if p.Name == opt.Name {
					cell = mdCell(p.Default)
				}
			}
			fmt.Fprintf(b, " %s |", cell)
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
	for _, kn := range kinds {
		k, _ := model.KindOf(kn)
		t := k.Takes()
		fmt.Fprintf(b, "### %s\n\n%s\n\n", kn, k.Doc())
		fmt.Fprintf(b, "- Labels: %s; seed words: %s; exclusion words: %s. It learns from %s.\n", yesNo(t.Labels), yesNo(t.Seeds), yesNo(t.Exclusions), t.How)
		fmt.Fprintf(b, "- Default pipeline: `--preset %s`.\n", k.Preset())
		fmt.Fprintf(b, "- Out of core (`--out-of-core`): %s. Automatic configuration (`--auto`, `--kind auto`): %s.\n\n",
			yesNo(slices.Contains(model.OutOfCoreKinds(), kn)), yesNo(slices.Contains(model.SupervisedKinds(), kn)))
		b.WriteString("| option | meaning | default | values |\n| --- | --- | --- | --- |\n")
		for _, p := range k.Params() {
			fmt.Fprintf(b, "| `%s` | %s | %s | %s |\n", optionFlag(p.Name), mdCell(p.Doc), mdCell(p.Default), mdCell(paramValues(p)))
		}
		b.WriteString("\n")
	}
}

// paramValues describes the values an option takes.
func paramValues(p model.Param) string {
	switch {
	case len(p.Choices) > 0:
		return strings.Join(p.Choices, ", ")
	case p.Range != (model.Interval{}):
		return p.Range.String()
	}
	for _, opt := range model.AllOptions() {
		if opt.Name == p.Name {
			var o model.Options
			switch opt.Field(&o).(type) {
			case *bool:
				return "on or off"
			case *uint64:
				return "a number ≥ 0"
			}
		}
	}
	return ""
}

// mdCell makes s safe in a Markdown table cell.
func mdCell(s string) string {
	return strings.ReplaceAll(s, "|", `\|`)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
