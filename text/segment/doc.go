// Package segment splits text written without spaces between words into
// words with a dictionary. Package text calls it for the runs of Han,
// Hiragana and Katakana characters that Unicode word segmentation
// (UAX #29) cannot split.
//
//   - Chinese (zh): the jieba dictionary and jieba's rule, the cut whose
//     words have the largest product of probabilities. jieba's HMM for
//     unknown words is left out: a character outside the dictionary is a
//     word of its own.
//   - Japanese (ja): the IPADIC dictionary and MeCab's algorithm, the
//     lowest-cost path through a lattice of morphemes and of unknown
//     words made by character class, in surface forms. The lattice pass
//     is this package's own, over the dictionary data of
//     github.com/ikawaha/kagome-dict/ipa; it cuts text as kagome's
//     tokenizer (github.com/ikawaha/kagome/v2) does, ties included
//     (TestKagomeAgreement), without its allocations: the lattice lives
//     in reused arrays, each node's best path is found as the node is
//     made, once per left context id and compared only with the best node
//     of each right context id.
//
// The Chinese dictionary is embedded in this package (zh.dict.gz: the
// words of github.com/go-ego/gse's simplified-Chinese dictionary
// data/dict/zh/s_1.txt, itself from jieba, with a count of at least 5:
// 140,151 words, 0.9 MB compressed; MIT licence, see LICENSE.jieba). The
// Japanese dictionary is the one github.com/ikawaha/kagome-dict/ipa
// embeds (mecab-ipadic 2.7.0, some 12 MB of the binary; its notice is
// that module's NOTICE.txt). Building with -tags semitopic_noja leaves it
// out: Japanese is then refused with an error that says so.
package segment
