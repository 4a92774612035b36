package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/model"
	"github.com/semitopic/semitopic/workbench"
	"github.com/semitopic/semitopic/workbench/web"
)

// readerFlagNames are the flags readerFlags.register adds, in its order:
// those given are the project's source, with which the workbench reads
// the corpus again when it resumes and which start the exported command.
var readerFlagNames = []string{"format", "subset", "remove", "categories", "all", "label-field", "text-col", "label-col", "id-col",
	"split-col", "label-sep", "no-header", "lazy-quotes", "ext", "vocab", "labels", "max-doc-size", "max-input-size", "max-ratio"}

// workbenchSettings are the flags a new project takes and a resumed one
// does not use (its own settings apply).
var workbenchSettings = []string{"kind", "topics", "seed", "max-iter", "anchors", "labels-from-corpus"}

func newWorkbenchCmd() *cobra.Command {
	var rf readerFlags
	var pf pipelineFlags
	var kind, anchorsPath, project, addr, token string
	var k, maxIter int
	var seed uint64
	var labelsFromCorpus bool
	var maxBody int64
	var grace time.Duration
	cmd := &cobra.Command{
		Use:   "workbench --format F PATH [--kind K] [-k N] [--anchors FILE] [--labels-from-corpus] [--project DIR] [--addr 127.0.0.1:0]",
		Short: "Steer a topic model in the browser: edit, refit in seconds, see what changed",
		Long: `workbench reads and vectorizes a corpus once, fits a first model, and serves a
web page (and a JSON API, every action an endpoint) in which you steer it:
add or remove seed words (with a strength) and exclusion words, create,
rename, merge, split and delete topics, label documents one by one or a
whole search or topic at a time, add stopwords, leave documents out,
change the number of topics and the kind. After each edit it refits in the
background, starting from the current model, and shows what the edit
changed: the words that entered and left each topic's top 10, the
documents that moved, the accuracy before and after (supervised kinds).

Every refit is a round saved in the project folder (--project, default
beside the corpus: NAME.workbench); undo and redo move between rounds
without refitting, and "semitopic workbench --project DIR" resumes where
you stopped, after a crash too. The page exports the model, the anchors
file, the labels CSV, an HTML report and the "semitopic fit" command that
reproduces the current round.

Defaults: --kind nmf, or tsnmf with --labels-from-corpus; -k one topic per
label and per seeded topic named otherwise when there are labels, else 20
(or the number of anchored topics when that is more). The page says what
each kind promises about seed words.

It binds loopback (127.0.0.1, a free port) by default and prints the
address. Any other address needs a token: one is made and printed with the
address unless --token gives it; the page reads it from the address once,
and API clients send it in the X-Semitopic-Token header. Changes are taken
only from the page's own origin, request sizes are limited, and nothing is
written outside the project folder. SIGINT or SIGTERM stops it gracefully.`,
		Example: `  semitopic workbench --format 20ng 20news-bydate.tar.gz --subset train --labels-from-corpus --project 20ng.workbench
  semitopic workbench --format csv docs.csv --anchors anchors.txt -k 15
  semitopic workbench --project 20ng.workbench`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			path := ""
			if len(args) == 1 {
				path = args[0]
			}
			if path == corpus.Stdin {
				return fmt.Errorf("PATH -: the workbench reads the corpus again when it resumes a project: give a file or folder, not standard input")
			}
			if path == "" && project == "" {
				return fmt.Errorf("give the corpus (--format F PATH), or --project DIR to resume a project")
			}
			if kind != "" && !slices.Contains(model.Kinds(), kind) {
				return fmt.Errorf("--kind: unknown kind %q (want %s)", kind, strings.Join(model.Kinds(), ", "))
			}
			for _, c := range []struct {
				name string
				v    int
			}{{"topics", k}, {"max-iter", maxIter}} {
				if cmd.Flags().Changed(c.name) && c.v < 1 {
					return fmt.Errorf("--%s %d: want a number ≥ 1 (leave the flag out for the default)", c.name, c.v)
				}
			}
			if maxBody < 1 {
				return fmt.Errorf("--max-body %d: want a number of bytes ≥ 1", maxBody)
			}
			if project == "" {
				project = defaultProject(path)
			}
			resuming, err := isProject(project)
			if err != nil {
				return err
			}
			stderr := cmd.ErrOrStderr()
			var c *corpus.Corpus
			cfg := workbench.Config{Project: project}
			if resuming {
				p, err := workbench.ReadProject(project)
				if err != nil {
					return err
				}
				var ignored []string
				for _, name := range append(slices.Clone(workbenchSettings), pipelineFlagNames...) {
					if cmd.Flags().Changed(name) {
						ignored = append(ignored, "--"+name)
					}
				}
				if len(ignored) > 0 {
					fmt.Fprintf(stderr, "note: resuming the project in %s, which has its own settings: %s not used (change them in the page, or start a new project with --project NEWDIR)\n",
						project, strings.Join(ignored, ", "))
				}
				if path != "" {
					c, err = rf.read(cmd.Context(), cmd, path)
				} else {
					c, err = readSource(cmd.Context(), cmd, p.Source)
				}
				if err != nil {
					return err
				}
			} else {
				if path == "" {
					return fmt.Errorf("--project %s holds no project: give the corpus too (--format F PATH) to start one there", project)
				}
				abs, err := filepath.Abs(path)
				if err != nil {
					return fmt.Errorf("PATH %s: %w", path, err)
				}
				ins := append(readerInputs(&rf, path), ioPath{name: "--anchors", path: anchorsPath})
				if err := checkNoOverwrite(ins, []ioPath{{name: "--project", path: project, folder: true}}); err != nil {
					return err
				}
				cfg.Kind, cfg.K, cfg.Seed, cfg.MaxIter, cfg.LabelsFromCorpus = kind, k, seed, maxIter, labelsFromCorpus
				if anchorsPath != "" {
					if cfg.Anchors, err = model.ReadAnchors(anchorsPath); err != nil {
						return err
					}
				}
				if pf.changed(cmd) {
					if rf.format == "mtx" || rf.format == "uci" {
						return fmt.Errorf("pipeline flags apply to a corpus of text; the %s format is already vectorized", rf.format)
					}
					if !cmd.Flags().Changed("preset") {
						// As fit: the flags given change the kind's preset.
						k := kind
						if k == "" {
							k = model.KindNMF
							if labelsFromCorpus {
								k = model.KindTSNMF
							}
						}
						pf.preset = model.DefaultPreset(k)
					}
					pl, err := pf.build(cmd)
					if err != nil {
						return err
					}
					// The preset first: fit applies the other flags to it.
					args := []string{"--preset=" + pf.preset}
					for _, a := range givenFlags(cmd.Flags(), pipelineFlagNames) {
						if !strings.HasPrefix(a, "--preset=") {
							args = append(args, a)
						}
					}
					cfg.Pipeline, cfg.PipelineArgs = &pl, args
				}
				cfg.Source = sourceArgs(cmd.Flags(), abs)
				if c, err = rf.read(cmd.Context(), cmd, path); err != nil {
					return err
				}
			}
			cfg.Corpus = c
			token, err = workbenchToken(addr, token)
			if err != nil {
				return err
			}
			// The address is checked before the fit, which can take long.
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return fmt.Errorf("--addr %s: %w", addr, err)
			}
			defer ln.Close()
			what := "fitting the first round"
			if resuming {
				what = "resuming the project"
			}
			fmt.Fprintf(stderr, "%s (%d documents; project %s)…\n", what, len(c.Docs), project)
			// A progress bar for the first fit only: later refits show
			// their progress in the page.
			var mu sync.Mutex
			var bar *progressBar
			opened := false
			cfg.Progress = func(st workbench.Status) {
				p := st.Progress
				if p == nil || p.Total <= 0 {
					return
				}
				mu.Lock()
				defer mu.Unlock()
				if opened {
					return
				}
				if bar == nil {
					bar = newProgressBar(stderr, what, p.Total)
				}
				bar.set(p.Iter)
			}
			sess, err := workbench.Open(cmd.Context(), cfg)
			mu.Lock()
			opened = true
			if bar != nil {
				bar.finish()
			}
			mu.Unlock()
			if err != nil {
				return err
			}
			defer sess.Close()
			st := sess.Status()
			fmt.Fprintf(stderr, "round %d: %s, %d topics\n", st.Round, st.Kind, st.K)
			for _, n := range st.Notes {
				fmt.Fprintf(stderr, "note: %s\n", n)
			}
			logger := slog.New(slog.NewJSONHandler(stderr, nil))
			h, err := web.New(sess, web.Options{Token: token, MaxBodyBytes: maxBody, Logger: logger})
			if err != nil {
				return err
			}
			printAddress(cmd.OutOrStdout(), ln.Addr(), token)
			return web.Serve(cmd.Context(), ln, h, logger, grace)
		},
	}
	f := cmd.Flags()
	rf.register(f, true)
	pf.register(f)
	f.StringVar(&kind, "kind", "", "model kind: "+strings.Join(model.Kinds(), ", ")+" (default nmf, or tsnmf with --labels-from-corpus); the page changes it")
	f.IntVarP(&k, "topics", "k", 0, "number of topics (default: one per label and seeded topic, else 20); the page changes it")
	f.Uint64Var(&seed, "seed", 0, "seed of every random choice")
	f.IntVar(&maxIter, "max-iter", 0, "maximum iterations of each refit, at least 1 (default: the kind's)")
	f.StringVar(&anchorsPath, "anchors", "", "anchors file to start from (name: word1, word2:3, -word3)")
	f.BoolVar(&labelsFromCorpus, "labels-from-corpus", false, "start with the corpus's own document labels")
	f.StringVar(&project, "project", "", "project folder: rounds, supervision and models (default beside the corpus, NAME.workbench); one that holds a project is resumed")
	f.StringVar(&addr, "addr", "127.0.0.1:0", "address to listen on (port 0: a free one); an address other than loopback needs a token")
	f.StringVar(&token, "token", "", "token the page and API clients must send (default: none on loopback, a random one otherwise)")
	f.Int64Var(&maxBody, "max-body", 1<<20, "largest request body in bytes")
	f.DurationVar(&grace, "grace", 10*time.Second, "time requests in flight get to finish on shutdown")
	return cmd
}

// defaultProject is the project folder beside the corpus at path:
// NAME.workbench, NAME the corpus's file name up to its first dot.
func defaultProject(path string) string {
	clean := filepath.Clean(path)
	base := filepath.Base(clean)
	if i := strings.Index(base, "."); i > 0 {
		base = base[:i]
	}
	return filepath.Join(filepath.Dir(clean), base+".workbench")
}

// isProject reports whether dir holds a workbench project.
func isProject(dir string) (bool, error) {
	fi, err := os.Stat(filepath.Join(dir, "project.json"))
	switch {
	case err == nil:
		return !fi.IsDir(), nil
	case errors.Is(err, os.ErrNotExist):
		return false, nil
	}
	return false, fmt.Errorf("--project %s: %w", dir, err)
}

// givenFlags are the flags among names given on the command line, as
// arguments that give them again ("--name=value").
func givenFlags(fs *pflag.FlagSet, names []string) []string {
	var out []string
	for _, n := range names {
		if f := fs.Lookup(n); f != nil && f.Changed {
			out = append(out, "--"+n+"="+f.Value.String())
		}
	}
	return out
}

// sourceArgs are the arguments of `semitopic fit` that read the corpus
// again: the reader flags given and the corpus's absolute path.
func sourceArgs(fs *pflag.FlagSet, abs string) []string {
	return append(givenFlags(fs, readerFlagNames), abs)
}

// readSource reads a project's corpus again from its source arguments
// (sourceArgs), printing the reader's notes on cmd's standard error.
func readSource(ctx context.Context, cmd *cobra.Command, source []string) (*corpus.Corpus, error) {
	sub := &cobra.Command{Use: "source"}
	sub.SetErr(cmd.ErrOrStderr())
	sub.SetIn(cmd.InOrStdin())
	var rf readerFlags
	rf.register(sub.Flags(), true)
	if err := sub.Flags().Parse(source); err != nil {
		return nil, fmt.Errorf("the project's source %q: %w", strings.Join(source, " "), err)
	}
	if sub.Flags().NArg() != 1 {
		return nil, fmt.Errorf("the project's source %q names %d corpora, not 1", strings.Join(source, " "), sub.Flags().NArg())
	}
	c, err := rf.read(ctx, sub, sub.Flags().Arg(0))
	if err != nil {
		return nil, fmt.Errorf("reading the project's corpus again (%s): %w; give it as --format F PATH beside --project", strings.Join(source, " "), err)
	}
	return c, nil
}

// workbenchToken is the token a server on addr needs: the one given, a
// new one for an address other than loopback, else none.
func workbenchToken(addr, token string) (string, error) {
	if token != "" {
		if len(token) < 16 || strings.ContainsAny(token, " \t\r\n") {
			return "", fmt.Errorf("--token: want at least 16 characters and no spaces (leave it out for a random one)")
		}
		return token, nil
	}
	if web.IsLoopback(addr) {
		return "", nil
	}
	return web.NewToken()
}

// printAddress prints the page's address, with the token when there is
// one, for the person to open.
func printAddress(w io.Writer, a net.Addr, token string) {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		host, port = a.String(), ""
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		if name, err := os.Hostname(); err == nil && name != "" {
			host = name
		} else {
			host = "localhost"
		}
	}
	u := "http://" + net.JoinHostPort(host, port) + "/"
	if token != "" {
		u += "?token=" + token
	}
	fmt.Fprintf(w, "semitopic workbench: %s\n", u)
	if token != "" {
		fmt.Fprintf(w, "API clients send the token in the %s header.\n", web.TokenHeader)
	}
}
