// Package wndata reads the WordNet 3.0 database files that the lemmatizer
// needs and writes them in the compact format that package wordnet embeds.
//
// Only two things are kept, read the way NLTK's WordNetCorpusReader reads
// them:
//
//   - for every lemma of the four index files (index.noun, index.verb,
//     index.adj, index.adv), the set of parts of speech it is listed under,
//     taken from each line's own part-of-speech field. A lemma listed as an
//     adjective ("a") is also marked as an adjective satellite ("s"),
//     because NLTK files every adjective lemma under both tags;
//   - the four exception lists (noun.exc, verb.exc, adj.exc, adv.exc),
//     inflected form → base forms in file order. When a form has several
//     lines, the last line wins, as it does in NLTK's dictionary.
//
// # Format
//
// The file is a gzip stream (best compression, empty header: no name, no
// time stamp, so equal inputs give equal bytes) of:
//
//	magic     "STWN" and the version byte 1
//	lemmas    uvarint count N, then three columns over the lemmas in
//	          increasing byte order (columns compress better than rows):
//	          N bytes, each the length of the prefix a lemma shares with the
//	          one before it; N suffixes (the rest of each lemma), each ended
//	          by '\n'; N part-of-speech mask bytes (MaskNoun | MaskVerb |
//	          MaskAdj | MaskAdv | MaskAdjSat)
//	exceptions four tables, for noun, verb, adj and adv in that order: uvarint
//	          count, then one line per inflected form in increasing byte
//	          order: the form and its base forms in file order, each
//	          followed by one ' ', the line ended by '\n'
//
// and nothing after.
package wndata
