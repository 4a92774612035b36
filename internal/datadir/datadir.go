package datadir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// EnvVar names the environment variable that overrides the data folder.
const EnvVar = "SEMITOPIC_DATA"

// Find returns the shared data folder: $SEMITOPIC_DATA if set, otherwise
// ../shared/data next to the module root found by walking up from the
// working directory to the folder holding go.mod. It returns an error
// saying where it looked when the folder does not exist.
func Find() (string, error) {
	if d := os.Getenv(EnvVar); d != "" {
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			return "", fmt.Errorf("$%s=%s is not a folder", EnvVar, d)
		}
		return d, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for dir := wd; ; {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			d := filepath.Join(dir, "..", "shared", "data")
			if fi, err := os.Stat(d); err == nil && fi.IsDir() {
				return filepath.Clean(d), nil
			}
			return "", fmt.Errorf("shared data folder %s not found (set $%s to its location)", filepath.Clean(d), EnvVar)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("shared data folder not found: no go.mod above the working directory (set $" + EnvVar + ")")
		}
		dir = parent
	}
}

// File returns the path of rel inside the shared data folder, or an error
// if the folder or the file is missing.
func File(rel string) (string, error) {
	d, err := Find()
	if err != nil {
		return "", err
	}
	p := filepath.Join(d, filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("shared data file missing: %w", err)
	}
	return p, nil
}

// Skipper is the part of testing.TB that Require uses; *testing.T,
// *testing.B and *testing.F satisfy it. Require takes this interface rather
// than testing.TB so that this package, which programs also import, does
// not link the testing package into them.
type Skipper interface {
	Helper()
	Skipf(format string, args ...any)
}

// Require returns the path of rel inside the shared data folder, or skips the
// test with a message saying what is missing and how to provide it.
func Require(tb Skipper, rel string) string {
	tb.Helper()
	p, err := File(rel)
	if err != nil {
		tb.Skipf("skipping: needs real data %s: %v", rel, err)
	}
	return p
}
