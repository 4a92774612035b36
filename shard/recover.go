package shard

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/semitopic/semitopic/internal/atomicfile"
)

// oldCorpus is the name, inside the folder ".DIR.old-PID-N" beside dir,
// that a Writer moves the corpus it replaces to until the new one is in
// place.
const oldCorpus = "corpus"

// CheckTarget reports whether a Writer may write dir, as Create and Close
// check, so that a caller can refuse before long work: it may not when
// replacing dir would lose data — dir is a file, or a folder that holds
// something but no sharded corpus — or when dir's previous replacement was
// interrupted (dir is missing and the corpus it held is beside it:
// Recover puts it back).
func CheckTarget(dir string) error {
	fi, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if old, err := interrupted(dir); err != nil {
			return err
		} else if old != nil {
			return errInterrupted(dir, old)
		}
		return nil
	case err != nil:
		return fmt.Errorf("shard: %w", err)
	case !fi.IsDir():
		return fmt.Errorf("shard: %s is a file, not a sharded corpus: refusing to replace it", dir)
	}
	if _, err := os.Stat(filepath.Join(dir, ManifestFile)); err == nil {
		return nil
	}
	es, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("shard: %w", err)
	}
	if len(es) > 0 {
		return fmt.Errorf("shard: %s holds %d entries (such as %s) but no %s: it is not a sharded corpus, and replacing it would delete them; choose another folder", dir, len(es), es[0].Name(), ManifestFile)
	}
	return nil
}

// interrupted returns the folder beside the missing dir in which an
// interrupted replacement left the corpus that dir held, the newest if
// several; nil when there is none.
func interrupted(dir string) (*atomicfile.Leftover, error) {
	olds, err := atomicfile.Leftovers(dir, atomicfile.KindOld)
	if err != nil {
		return nil, fmt.Errorf("shard: %w", err)
	}
	for i := len(olds) - 1; i >= 0; i-- {
		l := olds[i]
		if fi, err := os.Stat(filepath.Join(l.Path, oldCorpus)); err == nil && l.Dir && fi.IsDir() {
			return &l, nil
		}
	}
	return nil, nil
}

// errInterrupted says that dir is missing because its replacement was
// interrupted, and what puts it back.
func errInterrupted(dir string, old *atomicfile.Leftover) error {
	return fmt.Errorf("shard: %s does not exist: a replacement of it was interrupted, and %s holds the corpus it replaced; Recover (which every semitopic command that reads or writes the folder runs) puts a corpus back in place",
		dir, filepath.Join(old.Path, oldCorpus))
}

// Recover finishes or undoes a replacement of the sharded corpus in dir
// that was interrupted between its two renames (a Writer's Close moves
// the old corpus aside, into ".DIR.old-PID-N/corpus" beside dir, then
// renames its complete new folder ".DIR.tmp-PID-M" to dir), which leaves
// no dir. When the writer's process is gone (see atomicfile.Leftovers)
// and exactly one complete new folder of that process is beside dir, the
// replacement is finished: it becomes dir and the old corpus is removed.
// Otherwise the old corpus is put back as dir. Recover returns a sentence
// saying what it did, "" when there was nothing to do (dir exists, or no
// corpus of it was moved aside); while the writer still runs it does
// nothing and returns an error.
func Recover(dir string) (string, error) {
	dir = filepath.Clean(dir)
	if _, err := os.Lstat(dir); !errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	old, err := interrupted(dir)
	if err != nil || old == nil {
		return "", err
	}
	if !old.Stale {
		who := "another process"
		if old.PID > 0 {
			who = fmt.Sprintf("process %d", old.PID)
		}
		return "", fmt.Errorf("shard: %s is being replaced by %s (%s holds the previous corpus): try again once it has finished", dir, who, old.Path)
	}
	var done []atomicfile.Leftover
	if old.PID > 0 {
		tmps, err := atomicfile.Leftovers(dir, atomicfile.KindTmp)
		if err != nil {
			return "", fmt.Errorf("shard: %w", err)
		}
		for _, t := range tmps {
			if t.PID != old.PID || !t.Dir || !t.Stale {
				continue
			}
			if _, err := Open(t.Path); err == nil {
				done = append(done, t)
			}
		}
	}
	if len(done) == 1 {
		if err := os.Rename(done[0].Path, dir); err != nil {
			return "", fmt.Errorf("shard: finishing the interrupted replacement of %s: %w", dir, err)
		}
		if err := os.RemoveAll(old.Path); err != nil {
			return "", fmt.Errorf("shard: %s is in place; removing the corpus it replaced: %w", dir, err)
		}
		return fmt.Sprintf("%s: finished its replacement, which was interrupted once the new corpus was complete (it was in %s); the corpus it replaced is removed", dir, done[0].Path), nil
	}
	if err := os.Rename(filepath.Join(old.Path, oldCorpus), dir); err != nil {
		return "", fmt.Errorf("shard: putting back %s from %s: %w", dir, old.Path, err)
	}
	os.Remove(old.Path)
	why := "no complete new corpus was found"
	if len(done) > 1 {
		why = fmt.Sprintf("%d complete new corpora were found, such as %s", len(done), done[0].Path)
	}
	return fmt.Sprintf("%s: put back from %s, where a replacement interrupted before it was in place had moved it (%s)", dir, old.Path, why), nil
}
