// Package shard stores a documents × terms matrix on disk as shards of
// rows, for corpora larger than memory: a folder with manifest.json (the
// shape, the shards in row order and each one's SHA-256), shard-NNNNN.bin
// files (a CSR block of consecutive documents, little-endian), and the
// vocabulary and labels as text, one line per term and per document.
//
// A Writer takes documents one at a time and holds one shard's rows. It
// writes into a temporary folder beside the target and puts it in place
// only when everything is written, so an interrupted or failed write (a
// full disk) leaves the target as it was; it refuses a target that is not
// a sharded corpus, which the replacement would delete. A kill between the
// two renames that swap the folders leaves no target: Recover finishes or
// undoes the swap, and until then Open and Create say so. Open checks the
// manifest, ReadShard one shard with its checksum, ReadAll the whole
// matrix.
package shard
