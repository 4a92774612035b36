package segment

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"io"
	"strings"
)

// A Segmenter splits a run of text into words.
type Segmenter interface {
	// Append appends the words of run to dst and returns it. Each word is
	// a non-empty substring of run; together, in order, they cover every
	// letter of run.
	Append(dst []string, run string) []string
}

// New returns the segmenter of a language given by its ISO 639-1 code
// ("zh" or "ja"), loading its dictionary (about a second). Load it once
// and share it: a Segmenter is safe for concurrent use.
func New(lang string) (Segmenter, error) {
	switch lang {
	case "zh":
		return newChinese()
	case "ja":
		return newJapanese()
	}
	return nil, fmt.Errorf("segment: no dictionary segmenter for language %q (there is one for zh and ja)", lang)
}

// Languages returns the codes of the languages New knows: zh, and ja
// unless the build leaves its dictionary out (-tags semitopic_noja).
func Languages() []string {
	if !hasJapanese {
		return []string{"zh"}
	}
	return []string{"ja", "zh"}
}

//go:embed zh.dict.gz
var zhDict []byte

// readGzip returns the uncompressed contents of an embedded gzip file.
func readGzip(b []byte) (string, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return "", err
	}
	var sb strings.Builder
	if _, err := io.Copy(&sb, zr); err != nil {
		return "", err
	}
	return sb.String(), nil
}
