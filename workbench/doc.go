// Package workbench is the engine of the guided loop: a Session holds one
// corpus, read and vectorized once, the person's supervision of a topic
// model — seed and exclusion words per topic (the anchors grammar),
// labeled documents, stopwords, removed documents, the kind and the
// number of topics — and the rounds of fits it has led to.
//
// Every action of the person is an Edit, applied to a version of the
// state: an edit based on a version another client has moved past is
// refused with a *ConflictError naming the versions missed. After an edit
// the session refits in the background (after a short pause, so that a
// burst of edits is one refit; a newer edit cancels the refit in flight)
// while every view keeps answering from the current round. Each completed
// refit is a round, saved in the project folder with its supervision,
// model and figures (written as a hidden folder and renamed into place,
// so that a kill loses at most the round in flight); Undo and Redo move
// between rounds without refitting, and Open resumes a project where it
// stopped.
//
// After each refit the session records what the edits changed (Diff:
// words that entered and left each topic's top 10, documents that moved
// between topics, the accuracy before and after) and whether its promises
// held (Checks: a seed word's rank in its topic, an excluded word's
// weight, exactly 0, a labeled document's predicted label). Suggest
// proposes what to do next: documents to label, words that would separate
// two look-alike topics, topics that look like junk.
//
// Export writes what `semitopic fit` needs to reproduce the current round
// bit for bit: the anchors file, the labels CSV (ReadLabels), the lists
// of removed documents and stopwords (ReadList), and the command line.
// The package has no HTTP; package workbench/web serves a Session.
package workbench
