//go:build semitopic_noja

package segment

import "errors"

// hasJapanese reports whether the build holds the Japanese dictionary.
const hasJapanese = false

// japanese is absent from builds with the tag semitopic_noja, which
// leave out the IPADIC dictionary (some 12 MB of the binary).
type japanese struct{}

func newJapanese() (*japanese, error) {
	return nil, errors.New("segment: this build has no Japanese dictionary (it was built with -tags semitopic_noja); build without the tag to read Japanese")
}

// Append is never called: newJapanese fails.
func (*japanese) Append(dst []string, run string) []string { return append(dst, run) }
