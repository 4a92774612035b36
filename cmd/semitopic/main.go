package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := newRoot(os.Stdout, os.Stderr).ExecuteContext(ctx)
	stop()
	if err != nil {
		if errors.Is(err, context.Canceled) {
			fmt.Fprintln(os.Stderr, "semitopic: interrupted")
			os.Exit(130)
		}
		fmt.Fprintln(os.Stderr, "semitopic:", err)
		os.Exit(1)
	}
}

// newRoot builds the command tree writing to stdout and stderr; tests call
// it with buffers.
func newRoot(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "semitopic",
		Short: "Semi-supervised topic modeling: TS-NMF, theme-supervised NMF, SSNMF, anchored CorEx",
		Long: `semitopic finds the themes of a text corpus when you can say a little about
what you want to see: a few labeled example documents, or a few anchor words.

Start with "semitopic demo", then "semitopic formats" to see what it reads.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.AddCommand(
		newCorpusCmd(),
		newVectorizeCmd(),
		newFitCmd(),
		newTransformCmd(),
		newPredictCmd(),
		newTopicsCmd(),
		newReportCmd(),
		newServeCmd(),
		newWorkbenchCmd(),
		newChooseKCmd(),
		newEvaluateCmd(),
		newExperimentCmd(),
		newSynthCmd(),
		newFormatsCmd(),
		newDemoCmd(),
		newDocsCmd(),
	)
	return root
}
