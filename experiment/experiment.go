package experiment

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/semitopic/semitopic/chart"
	"github.com/semitopic/semitopic/internal/atomicfile"
)

// Env is what an experiment runs with.
type Env struct {
	// Data is the shared data folder (../shared/data).
	Data string
	// Out is the folder the report and its files go to (docs/results).
	Out string
	// Seeds is the number of repetitions (seeds 0..Seeds-1) where the
	// protocol repeats runs; 0 means the experiment's default.
	Seeds int
	// Quick runs a reduced protocol (fewer settings and iterations) to check
	// the pipeline end to end; its reports say so and are not written over
	// the full ones unless Out says otherwise.
	Quick bool
	// ReportOnly writes the report from the raw results already in Out,
	// running nothing, where an experiment resumes from them
	// (label-efficiency); the report names the runs that are missing.
	ReportOnly bool
	// Redo names model kinds whose results an experiment that resumes
	// recomputes in every stored run (label-efficiency: each kind's
	// defaults and automatic configuration, the best kind among them, and
	// the measurements of why), after a change that moves only them.
	Redo []string
	// Command is the command line that started the run, recorded in the
	// report.
	Command string
	// Log receives progress lines.
	Log io.Writer
}

// Logf writes a progress line.
func (e *Env) Logf(format string, args ...any) {
	if e.Log != nil {
		fmt.Fprintf(e.Log, format+"\n", args...)
	}
}

// DataPath returns the path of rel inside the data folder, or an error
// naming what is missing.
func (e *Env) DataPath(rel string) (string, error) {
	p := filepath.Join(e.Data, filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("experiment needs %s: %w", rel, err)
	}
	return p, nil
}

// seeds returns the number of repetitions, def unless Env.Seeds is set.
func (e *Env) seeds(def int) int {
	if e.Seeds > 0 {
		return e.Seeds
	}
	return def
}

// Experiment is one reproduction.
type Experiment struct {
	Name        string
	Description string
	Run         func(ctx context.Context, env *Env) error
}

// All returns the experiments in name order.
func All() []Experiment {
	all := registry()
	sort.Slice(all, func(i, j int) bool { return all[i].Name < all[j].Name })
	return all
}

// Find returns the named experiment.
func Find(name string) (Experiment, error) {
	var names []string
	for _, e := range All() {
		if e.Name == name {
			return e, nil
		}
		names = append(names, e.Name)
	}
	return Experiment{}, fmt.Errorf("unknown experiment %q (have: %s)", name, strings.Join(names, ", "))
}

// report accumulates a Markdown write-up and the files it refers to.
type report struct {
	env   *Env
	name  string
	b     strings.Builder
	start time.Time
	// command, when set, is the command that reproduces the report, where
	// it differs from the one that wrote it (env.Command).
	command string
}

func newReport(env *Env, name, title string) *report {
	r := &report{env: env, name: name, start: time.Now()}
	fmt.Fprintf(&r.b, "# %s\n\n", title)
	if env.Quick {
		r.p("**Quick run**: a reduced protocol to check the pipeline; the figures below are not the reproduction.")
	}
	return r
}

// p writes a paragraph.
func (r *report) p(format string, args ...any) {
	fmt.Fprintf(&r.b, format+"\n\n", args...)
}

// h2 writes a section heading.
func (r *report) h2(title string) { fmt.Fprintf(&r.b, "## %s\n\n", title) }

// table writes a Markdown table.
func (r *report) table(header []string, rows [][]string) {
	r.b.WriteString("| " + strings.Join(header, " | ") + " |\n|")
	for range header {
		r.b.WriteString(" --- |")
	}
	r.b.WriteString("\n")
	for _, row := range rows {
		r.b.WriteString("| " + strings.Join(row, " | ") + " |\n")
	}
	r.b.WriteString("\n")
}

// chart renders c as SVG next to the report and links it.
func (r *report) chart(file, alt string, c chart.Chart, s chart.Size) error {
	b, err := chart.Render(c, chart.SVG, s)
	if err != nil {
		return fmt.Errorf("chart %s: %w", file, err)
	}
	if err := r.writeFile(file, b); err != nil {
		return err
	}
	fmt.Fprintf(&r.b, "![%s](%s)\n\n", alt, file)
	return nil
}

// json writes v as an indented JSON file next to the report (raw results).
func (r *report) json(file string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return r.writeFile(file, append(b, '\n'))
}

func (r *report) writeFile(file string, b []byte) error {
	if err := os.MkdirAll(r.env.Out, 0o755); err != nil {
		return err
	}
	p := filepath.Join(r.env.Out, file)
	return atomicfile.WriteFile(p, func(w io.Writer) error { _, err := w.Write(b); return err })
}

// finish appends how the report was produced and writes NAME.md.
func (r *report) finish() error {
	r.h2("How this was produced")
	r.p("Command (from the repository root, with the shared data in `../shared/data`):")
	if r.command != "" && r.command != r.env.Command {
		fmt.Fprintf(&r.b, "```sh\n%s\n```\n\n", r.command)
		r.p("This report was written by `%s`, from the results the command above saved.", r.env.Command)
	} else {
		fmt.Fprintf(&r.b, "```sh\n%s\n```\n\n", r.env.Command)
	}
	r.p("Wall time %s on %d cores (%s/%s, %s), %s.", time.Since(r.start).Round(time.Second), runtime.GOMAXPROCS(0),
		runtime.GOOS, runtime.GOARCH, runtime.Version(), time.Now().UTC().Format("2006-01-02"))
	file := r.name + ".md"
	if err := r.writeFile(file, []byte(r.b.String())); err != nil {
		return err
	}
	r.env.Logf("wrote %s", filepath.Join(r.env.Out, file))
	return nil
}
