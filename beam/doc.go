// Package beam trains a blocks.Trainer out of core on Apache Beam (the Go
// SDK), the distributed equivalent of blocks.Run.
//
// Each pass of the fit is one Beam pipeline: the indices of the corpus's
// shards → a DoFn that rebuilds the trainer on the worker, reads its shard,
// updates the shard's document-side state and emits the shard's partial
// statistics → a global element-wise sum (a CombineFn) → a DoFn that writes
// the sum where the driver reads it. The driver then calls the trainer's
// Reduce, which updates the topic-side state, and starts the next pass
// until Reduce reports that the fit is finished.
//
// The corpus is a sharded corpus folder (package shard) and the
// document-side state lives in a shard.Store folder. On a cluster both, and
// the state folder's work files (the marshalled trainer of each pass and
// the summed statistics), must be on a filesystem that the driver and
// every worker see at the same path. The tests run on Beam's Prism runner
// in this process (loopback workers); see README.md for Flink, Spark and
// Dataflow.
//
// It lives in its own module (github.com/semitopic/semitopic/beam), so that
// the main module and its binary do not carry the Beam SDK.
//
// A program that calls Run must call flag.Parse and then Beam's Init at the
// start of main: on a remote runner the same binary is started as the
// worker, and Init is where it turns into one.
package beam
