// Package blocks is the contract between a corpus read in blocks of
// consecutive documents and the algorithms that train on it out of core.
//
// A Source yields the documents × terms matrix one block of rows at a time
// (a sharded corpus on disk, package shard, or a matrix in memory, FromCSR).
// A Store keeps each block's document-side state — NMF's rows of W, CorEx's
// p(y|x), LDA's γ — between passes, on disk (shard.Store) or in memory
// (NewMemStore). A Trainer is a fit written as a sequence of passes in
// map-reduce shape: Map updates one block's document-side state and adds
// the block's statistics into a vector; the vectors of all blocks are
// summed; Reduce updates the topic-side state, which is all that stays in
// memory, from the sum.
//
// Run drives a Trainer on one machine, reading one block ahead of the one
// being processed and writing the states and checkpoints in the
// background, so that peak memory is two blocks, the trainer's topic-side
// state, and the few states and the checkpoint being written. The same Trainer runs on a distributed engine (the
// nested beam module): its state travels to the workers through
// MarshalBinary, and the sum is the engine's combine.
package blocks
