// Package corpus holds documents, their labels and splits, and the readers
// that load them from the formats semitopic supports: the benchmark corpora
// of the papers (Reuters-21578 SGML and NLTK ApteMod, 20 Newsgroups bydate,
// Brown, BBC News) in their original layout, generic user formats (a folder
// per label, CSV/TSV, JSON Lines) and already-vectorized matrices
// (MatrixMarket with a vocabulary file, UCI bag-of-words).
//
// Readers of folder layouts accept an unpacked folder or an archive (.tar.gz,
// .tgz, .tar, .zip; see OpenFS); readers of table and matrix formats take a
// file. Every reader returns documents in a documented, deterministic order.
// Files are decoded as UTF-8, or as UTF-16 when they start with its byte
// order mark, falling back to Latin-1 for a file that is not valid UTF-8
// (see DecodeText), and Corpus.Notes names the files not read as UTF-8. A
// file that is not text (an archive inside an archive, an image, anything
// with NUL bytes) is never read as text: the folder layouts skip it with a
// note naming it, the other readers refuse it (NotTextError). Archives,
// compressed files, documents and lines are bounded (see Limits), so that a
// decompression bomb fails early with an error naming the member.
// Malformed input yields an error naming the file and line; nothing is
// dropped silently.
//
// WriteMTX writes a vectorized corpus in the mtx format, for the MTX reader
// and other tools. ReadDocTopics, ReadLabelsFile and ReadMatrixFile read
// the files that evaluating a model takes: a documents × topics matrix,
// labels one line per document, a bare MatrixMarket matrix.
package corpus
