// Package text turns raw document text into the terms that semitopic's
// vectorizers count. Each step is a function of its own, testable alone, and
// an Analyzer chains them in this order:
//
//  1. Unicode NFKC normalisation (optional), then optional accent stripping.
//  2. Case: full Unicode case folding (default), lower-casing, or none.
//  3. Tokenizing by one of four patterns (see Pattern).
//  4. Dropping digit-only tokens (optional).
//  5. Filters: minimum and maximum token length in characters, stopwords.
//  6. Morphology: the WordNet lemmatizer (equal to NLTK's WordNetLemmatizer)
//     or the Snowball English stemmer.
//  7. n-grams of the remaining tokens, joined with a single space.
//
// Options.FilterAfterMorph moves step 5 after step 6, as some reference
// pipelines do (the TS-NMF code lemmatizes first, then drops short words and
// stopwords; the theme-supervised NMF code drops them first).
package text
