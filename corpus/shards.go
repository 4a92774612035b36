package corpus

import (
	"context"
	"fmt"

	"github.com/semitopic/semitopic/shard"
)

// Shards reads a sharded corpus (package shard): PATH is its folder. Every
// shard is read and checked against the manifest's checksum, and the
// corpus is held in memory as one matrix, like the other vectorized
// formats; documents are "doc-1", "doc-2", … with the labels of the
// labels file. A corpus without a vocabulary file is an error.
type Shards struct{}

// Read implements Reader.
func (Shards) Read(ctx context.Context, p string) (*Corpus, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	x, vocab, labels, err := shard.ReadAll(p)
	if err != nil {
		return nil, err
	}
	if vocab == nil {
		return nil, fmt.Errorf("shards: %s has no vocabulary file", p)
	}
	c := &Corpus{Name: "shards: " + p, Docs: vectorDocs(x.Rows), Matrix: &Matrix{X: x, Vocab: vocab}}
	for i, l := range labels {
		c.Docs[i].Labels = l
	}
	return c, nil
}
