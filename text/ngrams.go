package text

import "strings"

// NGrams appends to dst the n-grams of tokens for every n in [min, max],
// each joined with a single space: first all unigrams (when min is 1), then
// all bigrams, and so on, as scikit-learn's word n-grams. min and max are
// clamped to at least 1; n-grams longer than the token list are skipped.
func NGrams(dst []string, tokens []string, min, max int) []string {
	if min < 1 {
		min = 1
	}
	if max < min {
		max = min
	}
	var b strings.Builder
	for n := min; n <= max && n <= len(tokens); n++ {
		if n == 1 {
			dst = append(dst, tokens...)
			continue
		}
		for i := 0; i+n <= len(tokens); i++ {
			b.Reset()
			for k, t := range tokens[i : i+n] {
				if k > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(t)
			}
			dst = append(dst, b.String())
		}
	}
	return dst
}
