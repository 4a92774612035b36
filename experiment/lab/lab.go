package lab

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
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
	// Datasets, when set, runs only these of the corpora the protocol
	// names (accuracy-estimate; languages: its ISO 639-1 codes), for a
	// quicker check on a subset; the report names the runs that are
	// missing.
	Datasets []string
	// Command is the command line that started the run, recorded in the
	// report.
	Command string
	// Log receives progress lines.
	Log io.Writer
}

// ExperimentCommand is the command that runs experiment name into
// e.Out, with the corpora and seeds e names: what a report written by
// --report-only or --redo names as its source (Report.SetCommand).
func (e *Env) ExperimentCommand(name string) string {
	cmd := "go run ./cmd/semitopic experiment " + name
	if len(e.Datasets) > 0 {
		cmd += " --datasets " + strings.Join(e.Datasets, ",")
	}
	if e.Seeds > 0 {
		cmd += fmt.Sprintf(" --seeds %d", e.Seeds)
	}
	if e.Out != "docs/results" {
		cmd += " --out " + e.Out
	}
	return cmd
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

// SeedsOr returns the number of repetitions, def unless Env.Seeds is set.
func (e *Env) SeedsOr(def int) int {
	if e.Seeds > 0 {
		return e.Seeds
	}
	return def
}

// Only returns the corpora of all that Env.Datasets names, in the order
// of all (all of them when it names none), or an error naming one that is
// not among them.
func (e *Env) Only(all []string) ([]string, error) {
	if len(e.Datasets) == 0 {
		return all, nil
	}
	want := map[string]bool{}
	for _, d := range e.Datasets {
		if !slices.Contains(all, d) {
			return nil, fmt.Errorf("--datasets: no corpus %q in this experiment (it runs %s)", d, strings.Join(all, ", "))
		}
		want[d] = true
	}
	var out []string
	for _, d := range all {
		if want[d] {
			out = append(out, d)
		}
	}
	return out, nil
}

// Experiment is one reproduction: its name on the command line, a line
// saying what it reproduces, and the function that runs it.
type Experiment struct {
	Name        string
	Description string
	Run         func(ctx context.Context, env *Env) error
	// Subsets says whether Run honours Env.Datasets; the others refuse
	// it rather than run every corpus.
	Subsets bool
}

// Report accumulates a Markdown write-up and the files it refers to.
type Report struct {
	env   *Env
	name  string
	b     strings.Builder
	start time.Time
	// command, when set, is the command that reproduces the report, where
	// it differs from the one that wrote it (env.Command).
	command string
}

// NewReport starts the report NAME.md of env.Out with its title.
func NewReport(env *Env, name, title string) *Report {
	r := &Report{env: env, name: name, start: time.Now()}
	fmt.Fprintf(&r.b, "# %s\n\n", title)
	if env.Quick {
		r.P("**Quick run**: a reduced protocol to check the pipeline; the figures below are not the reproduction.")
	}
	return r
}

// Name returns the report's name: its file is Name().md, and the files
// next to it begin with Name().
func (r *Report) Name() string { return r.name }

// Code writes text as a fenced block.
func (r *Report) Code(text string) { fmt.Fprintf(&r.b, "```\n%s\n```\n\n", text) }

// Raw writes text as it is.
func (r *Report) Raw(text string) { r.b.WriteString(text) }

// SetCommand records the command that reproduces the report where it
// differs from the one that wrote it (env.Command): Finish names both.
func (r *Report) SetCommand(cmd string) { r.command = cmd }

// P writes a paragraph.
func (r *Report) P(format string, args ...any) {
	fmt.Fprintf(&r.b, format+"\n\n", args...)
}

// H2 writes a section heading.
func (r *Report) H2(title string) { fmt.Fprintf(&r.b, "## %s\n\n", title) }

// Table writes a Markdown table; a "|" inside a cell is escaped as "\|",
// so that it does not split the cell.
func (r *Report) Table(header []string, rows [][]string) {
	line := func(cells []string) string {
		esc := make([]string, len(cells))
		for i, c := range cells {
			esc[i] = strings.ReplaceAll(c, "|", `\|`)
		}
		return "| " + strings.Join(esc, " | ") + " |\n"
	}
	r.b.WriteString(line(header) + "|")
	for range header {
		r.b.WriteString(" --- |")
	}
	r.b.WriteString("\n")
	for _, row := range rows {
		r.b.WriteString(line(row))
	}
	r.b.WriteString("\n")
}

// Chart renders c as SVG next to the report and links it.
func (r *Report) Chart(file, alt string, c chart.Chart, s chart.Size) error {
	b, err := chart.Render(c, chart.SVG, s)
	if err != nil {
		return fmt.Errorf("chart %s: %w", file, err)
	}
	if err := r.WriteFile(file, b); err != nil {
		return err
	}
	fmt.Fprintf(&r.b, "![%s](%s)\n\n", alt, file)
	return nil
}

// JSON writes v as an indented JSON file next to the report (raw results).
func (r *Report) JSON(file string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return r.WriteFile(file, append(b, '\n'))
}

// WriteFile writes b to file next to the report, atomically.
func (r *Report) WriteFile(file string, b []byte) error {
	if err := os.MkdirAll(r.env.Out, 0o755); err != nil {
		return err
	}
	p := filepath.Join(r.env.Out, file)
	return atomicfile.WriteFile(p, func(w io.Writer) error { _, err := w.Write(b); return err })
}

// Since makes the report's wall time count from t, for an experiment
// that starts its report after its work.
func (r *Report) Since(t time.Time) { r.start = t }

// Finish appends how the report was produced and writes NAME.md.
func (r *Report) Finish() error {
	r.H2("How this was produced")
	r.P("Command (from the repository root, with the shared data in `../shared/data`):")
	if r.command != "" && r.command != r.env.Command {
		fmt.Fprintf(&r.b, "```sh\n%s\n```\n\n", r.command)
		r.P("This report was written by `%s`, from the results the command above saved.", r.env.Command)
	} else {
		fmt.Fprintf(&r.b, "```sh\n%s\n```\n\n", r.env.Command)
	}
	r.P("Wall time %s on %d cores (%s/%s, %s), %s.", time.Since(r.start).Round(time.Second), runtime.GOMAXPROCS(0),
		runtime.GOOS, runtime.GOARCH, runtime.Version(), time.Now().UTC().Format("2006-01-02"))
	file := r.name + ".md"
	if err := r.WriteFile(file, []byte(r.b.String())); err != nil {
		return err
	}
	r.env.Logf("wrote %s", filepath.Join(r.env.Out, file))
	return nil
}

// LoadAverage is the system's load averages over 1, 5 and 15 minutes,
// separated by spaces, as the reports print them beside their times (""
// where /proc/loadavg is missing or unreadable).
func LoadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}
