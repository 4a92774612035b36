package main

import (
	"fmt"
	"io"

	"github.com/semitopic/semitopic/model"
	"github.com/semitopic/semitopic/progress"
)

// warnConvergence warns on w, as scikit-learn's ConvergenceWarning does,
// when the fit stopped at its iteration limit before its stopping rule was
// met, saying what the rule measured last when the kind knows it.
func warnConvergence(w io.Writer, info model.Info) {
	if c := info.Convergence; c.Status == progress.IterationLimit {
		fmt.Fprintf(w, "warning: the fit %s; raise --max-iter or --tol\n", c)
	}
}
