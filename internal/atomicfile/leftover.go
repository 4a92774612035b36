package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Temporaries are named after their target and the process writing them:
// ".NAME.KIND-PID-RANDOM" beside the target NAME, KIND being "tmp" for
// what is being written and, for a folder replaced as a whole (package
// shard), "old" for the previous folder moved aside. Names of an earlier
// version, ".NAME.KIND-RANDOM", carry no process.
//
// A temporary is stale — left by a writer that was killed — when the
// process that named it no longer runs on this machine, or, whatever its
// process, when nothing in it has changed for StaleAge: a live writer
// writes its temporary continuously, and a process number may have been
// reused. A writer on another machine sharing the folder is not seen as
// running: its temporary may then be removed, which makes that write fail
// but never touches a target.

// StaleAge is how long a temporary must have been left unchanged to be
// stale even while a process with its number runs.
const StaleAge = time.Hour

// Temporary kinds: KindTmp is what is being written, KindOld a folder
// moved aside while a new one takes its place.
const (
	KindTmp = "tmp"
	KindOld = "old"
)

// TempPattern is the pattern, for os.CreateTemp and os.MkdirTemp in the
// target's folder, of this process's temporary of the given kind for the
// target named base.
func TempPattern(base, kind string) string {
	return "." + base + "." + kind + "-" + strconv.Itoa(os.Getpid()) + "-*"
}

// Leftover is a temporary found beside a target.
type Leftover struct {
	// Path is the temporary's path.
	Path string
	// PID is the process that named it, 0 when its name carries none.
	PID int
	// Dir reports whether it is a folder.
	Dir bool
	// Modified is its last change: for a folder, the latest of its own
	// and its entries'.
	Modified time.Time
	// Stale reports whether its writer is gone (see StaleAge).
	Stale bool
}

// Leftovers lists the temporaries of the given kind beside target, named
// exactly as TempPattern names them (or as an earlier version did),
// oldest first.
func Leftovers(target, kind string) ([]Leftover, error) {
	dir, base := filepath.Split(filepath.Clean(target))
	if dir == "" {
		dir = "."
	}
	re := regexp.MustCompile(`^\.` + regexp.QuoteMeta(base) + `\.` + regexp.QuoteMeta(kind) + `-(?:([0-9]+)-)?[0-9]+$`)
	es, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, fmt.Errorf("%s: %w", target, err)
	}
	now := time.Now()
	var out []Leftover
	for _, e := range es {
		m := re.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		p := filepath.Join(dir, e.Name())
		fi, err := os.Lstat(p)
		if err != nil || !(fi.Mode().IsRegular() || fi.IsDir()) {
			continue // gone meanwhile, or not something we make
		}
		l := Leftover{Path: p, Dir: fi.IsDir(), Modified: fi.ModTime()}
		if l.Dir {
			if sub, err := os.ReadDir(p); err == nil {
				for _, s := range sub {
					if si, err := s.Info(); err == nil && si.ModTime().After(l.Modified) {
						l.Modified = si.ModTime()
					}
				}
			}
		}
		if m[1] != "" {
			l.PID, _ = strconv.Atoi(m[1])
		}
		l.Stale = now.Sub(l.Modified) >= StaleAge || (l.PID > 0 && !running(l.PID))
		out = append(out, l)
	}
	// Oldest first; names break ties, so that the order is the same on
	// every call.
	slices.SortFunc(out, func(a, b Leftover) int {
		if c := a.Modified.Compare(b.Modified); c != 0 {
			return c
		}
		return strings.Compare(a.Path, b.Path)
	})
	return out, nil
}

// RemoveStale removes the stale temporaries of the given kind beside
// target (see Leftovers) and returns their paths. A temporary that cannot
// be removed is left; the first such error is returned with the paths
// that were removed.
func RemoveStale(target, kind string) ([]string, error) {
	ls, err := Leftovers(target, kind)
	if err != nil {
		return nil, err
	}
	var removed []string
	var first error
	for _, l := range ls {
		if !l.Stale {
			continue
		}
		if err := os.RemoveAll(l.Path); err != nil {
			if first == nil {
				first = fmt.Errorf("removing the stale temporary %s: %w", l.Path, unwrapPath(err))
			}
			continue
		}
		removed = append(removed, l.Path)
	}
	return removed, first
}
