package labelefficiency

import (
	"encoding/json"
	"os"

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
