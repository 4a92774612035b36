package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// File is a file being written. Write to it, then Commit to put it in place
// or Abort to throw it away; Abort after Commit does nothing, so
//
//	f, err := atomicfile.Create(path)
//	if err != nil { ... }
//	defer f.Abort()
//	... write ...
//	return f.Commit()
//
// never leaves a temporary file behind.
type File struct {
	tmp  *os.File
	path string
	mode fs.FileMode
	done bool
}

// Create starts writing path. It fails at once when path's folder does not
// exist or cannot be written, or when path is a folder. The temporary file
// is named as TempPattern says, and the stale temporaries that killed
// writes of path left beside it are removed first (see RemoveStale).
func Create(path string) (*File, error) {
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		if !fi.Mode().IsRegular() {
			return nil, fmt.Errorf("%s: not a regular file", path)
		}
		mode = fi.Mode().Perm()
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	// What a killed write left beside the target goes now; a failure
	// to remove it is no reason not to write.
	_, _ = RemoveStale(path, KindTmp)
	tmp, err := os.CreateTemp(dir, TempPattern(base, KindTmp))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	return &File{tmp: tmp, path: path, mode: mode}, nil
}

// Write writes to the temporary file.
func (f *File) Write(p []byte) (int, error) { return f.tmp.Write(p) }

// Name is the target path.
func (f *File) Name() string { return f.path }

// Commit syncs the temporary file and renames it over the target.
func (f *File) Commit() error {
	if f.done {
		return fmt.Errorf("%s: already committed or aborted", f.path)
	}
	f.done = true
	name := f.tmp.Name()
	err := f.tmp.Sync()
	if cerr := f.tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(name, f.mode)
	}
	if err == nil {
		err = os.Rename(name, f.path)
	}
	if err != nil {
		os.Remove(name)
		return fmt.Errorf("writing %s: %w", f.path, unwrapPath(err))
	}
	syncDir(filepath.Dir(f.path))
	return nil
}

// Abort removes the temporary file, leaving the target as it was. It does
// nothing after Commit or a previous Abort.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.tmp.Close()
	os.Remove(f.tmp.Name())
}

// WriteFile writes path with fill, through a buffer, atomically: when fill
// or any step of writing fails, path keeps its old content and no
// temporary file remains.
func WriteFile(path string, fill func(w io.Writer) error) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	defer f.Abort()
	bw := bufio.NewWriterSize(f, 1<<20)
	if err := fill(bw); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return f.Commit()
}

// CheckWritable reports, before any long work, whether path can be written:
// its folder exists and accepts new files, and path is not a folder. It
// leaves nothing behind.
func CheckWritable(path string) error {
	if path == "" {
		return errors.New("empty output path")
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%s: folder %s does not exist", path, dir)
		}
		return fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s: %s is not a folder", path, dir)
	}
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("%s: not a regular file", path)
	}
	f, err := Create(path)
	if err != nil {
		return err
	}
	f.Abort()
	return nil
}

// unwrapPath drops the *fs.PathError wrapper, whose temporary file name
// means nothing to the user; the caller names the target instead.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
