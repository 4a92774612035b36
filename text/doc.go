// Package text turns raw document text into the terms that semitopic's
// vectorizers count. Each step is a function of its own, testable alone, and
// an Analyzer chains them in this order:
//
//  1. Unicode NFKC normalisation (optional), then optional accent stripping.
//  2. Case: full Unicode case folding (default), lower-casing, or none.
//  3. Tokenizing by one of five patterns (see Pattern); with a Chinese or
//     Japanese Options.Language, the runs of Han and kana are then cut into
//     words by a dictionary (package text/segment).
//  4. Dropping digit-only tokens (optional).
//  5. Filters: minimum and maximum token length in characters, stopwords.
//  6. Morphology: the WordNet lemmatizer (equal to NLTK's WordNetLemmatizer;
//     English only) or the Snowball stemmer of the language.
//  7. n-grams of the remaining tokens, joined with a single space.
//
// Options.FilterAfterMorph moves step 5 after step 6, as some reference
// pipelines do (the TS-NMF code lemmatizes first, then drops short words and
// stopwords; the theme-supervised NMF code drops them first).
//
// Options.Language names the text's language (ISO 639-1); WithLanguage
// sets the options up for it (its stopwords, stemmer and tokens) and
// Languages lists what the pipeline knows of each. English is the default
// and an empty Language.
package text
