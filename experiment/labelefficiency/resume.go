package labelefficiency

import (
	"encoding/json"
	"os"
	"time"

	"github.com/semitopic/semitopic/experiment/lab"
)

// resume returns the raw results stored at path when they were made by
// protocol (a rerun then goes on from them), else nil; protocolOf and
// runs read a result's protocol and its number of runs.
func resume[T any](env *lab.Env, path, protocol string, protocolOf func(*T) string, runs func(*T) int) *T {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	old := new(T)
	if json.Unmarshal(b, old) != nil || protocolOf(old) != protocol {
		return nil
	}
	env.Logf("resuming: %d runs already in %s", runs(old), path)
	return old
}

// runsNote writes how long runs took in all over the invocations that
// wrote name.json (seconds: their times' sum); a rerun resumes from it,
// so the report's own wall time is the last invocation's alone.
func runsNote(rep *lab.Report, name string, runs int, seconds float64) {
	rep.P("The %d runs took %s of computing in all, over the invocations that wrote %s.json (a rerun resumes from it); the wall time below is the last invocation's alone.",
		runs, time.Duration(seconds*float64(time.Second)).Round(time.Second), name)
}
