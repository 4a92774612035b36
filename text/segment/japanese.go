//go:build !semitopic_noja

package segment

import (
	"fmt"

	"github.com/ikawaha/kagome-dict/ipa"
	"github.com/ikawaha/kagome/v2/tokenizer"
)

// hasJapanese reports whether the build holds the Japanese dictionary.
const hasJapanese = true

// japanese segments with kagome and the IPADIC dictionary.
type japanese struct {
	tok *tokenizer.Tokenizer
}

func newJapanese() (*japanese, error) {
	t, err := tokenizer.New(ipa.Dict(), tokenizer.OmitBosEos())
	if err != nil {
		return nil, fmt.Errorf("segment: Japanese dictionary: %w", err)
	}
	return &japanese{tok: t}, nil
}

// Append cuts run into the morphemes of the lowest-cost path through
// IPADIC's lattice (MeCab's algorithm), in their surface forms.
func (j *japanese) Append(dst []string, run string) []string {
	for _, t := range j.tok.Tokenize(run) {
		if t.Surface == "" || t.Position < 0 || t.Position+len(t.Surface) > len(run) {
			continue
		}
		dst = append(dst, run[t.Position:t.Position+len(t.Surface)])
	}
	return dst
}
