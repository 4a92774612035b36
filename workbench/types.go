package workbench

import (
	"fmt"
	"strings"
	"time"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/model"
	"github.com/semitopic/semitopic/vectorize"
)

// Config opens a Session (see Open).
type Config struct {
	// Corpus is the corpus, read once by the caller. Its documents must
	// have distinct IDs: edits and views name documents by ID.
	Corpus *corpus.Corpus
	// Source are the arguments of `semitopic fit` that read the corpus
	// again — the format, the path and the reader's flags, such as
	// {"--format", "20ng", "data.tar.gz", "--subset", "train"}. They are
	// recorded in the project and start the exported command.
	Source []string
	// Pipeline is the text pipeline; nil takes the kind's default preset
	// (model.DefaultPreset), which then follows the kind when it changes.
	// An explicit pipeline stays whatever the kind.
	Pipeline *vectorize.Pipeline
	// PipelineArgs are the flags of `semitopic fit` that make Pipeline
	// ("--preset", "default", "--ngrams", "1-2", ...), --preset included,
	// for the exported command; used only when Pipeline is set.
	PipelineArgs []string
	// Kind is the model kind; "" is nmf, or tsnmf when the documents are
	// labeled (LabelsFromCorpus).
	Kind string
	// K is the number of topics; 0 is, with labels, one per label and one
	// per seeded topic not named like a label, else 20 or the number of
	// anchored topics when that is more.
	K int
	// Seed seeds every fit (and the cross-validation's folds).
	Seed uint64
	// MaxIter bounds each fit's iterations (0: the kind's default).
	MaxIter int
	// Anchors are the initial seed and exclusion words.
	Anchors []model.Anchor
	// LabelsFromCorpus starts with the corpus's own labels.
	LabelsFromCorpus bool
	// Project is the project folder, created when missing. When it holds
	// a project, Open resumes it and the fields above but Corpus,
	// Progress and Debounce are not used.
	Project string
	// Progress, when set, receives the status at each stage and step of
	// a refit (steps at most every 100 ms) and at each change of the
	// state, one call at a time. It must return quickly; it may call the
	// session's methods.
	Progress func(Status)
	// Debounce is the pause after an edit before the refit starts, so
	// that a burst of edits is one refit: 0 is DefaultDebounce; a
	// negative value turns automatic refits off (Refit starts them).
	Debounce time.Duration
}

// DefaultDebounce is the pause after an edit before the refit starts.
const DefaultDebounce = 150 * time.Millisecond

// The edits (Edit.Op).
const (
	OpAddSeed        = "add-seed"        // Topic, Word, Strength (0: the default)
	OpRemoveSeed     = "remove-seed"     // Topic, Word
	OpAddExclude     = "add-exclude"     // Topic, Word
	OpRemoveExclude  = "remove-exclude"  // Topic, Word
	OpCreateTopic    = "create-topic"    // Name, Words (seed words); k+1
	OpRename         = "rename"          // Topic → Name
	OpMerge          = "merge"           // Topic and Other → Topic; k−1
	OpSplit          = "split"           // Topic → Topic (Groups[0]) and Name (Groups[1]); k+1
	OpDeleteTopic    = "delete-topic"    // Topic; k−1
	OpLabel          = "label"           // Docs get Label (replacing the labels they had)
	OpUnlabel        = "unlabel"         // Docs lose their labels (only Label, when given)
	OpAddStopword    = "add-stopword"    // Word leaves the vocabulary
	OpRemoveStopword = "remove-stopword" // Word comes back
	OpRemoveDoc      = "remove-doc"      // Docs leave the model
	OpRestoreDoc     = "restore-doc"     // Docs come back
	OpSetK           = "set-k"           // K
	OpSetKind        = "set-kind"        // Kind
)

// Ops lists the edits, in the order above.
func Ops() []string {
	return []string{OpAddSeed, OpRemoveSeed, OpAddExclude, OpRemoveExclude, OpCreateTopic, OpRename, OpMerge, OpSplit,
		OpDeleteTopic, OpLabel, OpUnlabel, OpAddStopword, OpRemoveStopword, OpRemoveDoc, OpRestoreDoc, OpSetK, OpSetKind}
}

// Edit is one action of the person; Op names it and the constants' comments
// say which fields it reads. Topics are named as the views name them
// (TopicView.Name); words are read as the pipeline reads them ("Games" is
// the vocabulary's "game"); documents are named by ID.
type Edit struct {
	Op string `json:"op"`
	// Topic and Other name topics.
	Topic string `json:"topic,omitempty"`
	Other string `json:"other,omitempty"`
	// Name is a new topic name (create-topic, rename, split).
	Name string `json:"name,omitempty"`
	// Word is a seed, exclusion or stop word; Strength a seed word's
	// strength (0: the kind's default; else from model.MinStrength to
	// model.MaxStrength).
	Word     string  `json:"word,omitempty"`
	Strength float64 `json:"strength,omitempty"`
	// Words are a new topic's seed words (create-topic).
	Words []string `json:"words,omitempty"`
	// Groups are the two groups of seed words of a split.
	Groups [2][]string `json:"groups,omitzero"`
	// Docs are document IDs (label, unlabel, remove-doc, restore-doc).
	Docs []string `json:"docs,omitempty"`
	// Label is the label given (label) or taken away (unlabel).
	Label string `json:"label,omitempty"`
	// K is the number of topics (set-k); Kind the model kind (set-kind).
	K    int    `json:"k,omitempty"`
	Kind string `json:"kind,omitempty"`
}

// ConflictError refuses an action based on a version of the state that
// is no longer the current one: another client (a second tab) changed it
// meanwhile. The web API answers it with status 409.
type ConflictError struct {
	// Base is the version the action was based on, Current the state's.
	Base, Current int
	// Missed describes the changes from Base to Current, oldest first.
	Missed []string
}

func (e *ConflictError) Error() string {
	what := "change"
	if len(e.Missed) != 1 {
		what = "changes"
	}
	s := fmt.Sprintf("workbench: the state is at version %d, not %d: %d %s since", e.Current, e.Base, e.Current-e.Base, what)
	if len(e.Missed) > 0 {
		s += " (" + strings.Join(e.Missed, "; ") + ")"
	}
	return s + "; reload and try again"
}

// State is the person's supervision and settings: what an edit changes and
// a round records.
type State struct {
	// Kind and K are the model kind and the number of topics.
	Kind string `json:"kind"`
	K    int    `json:"k"`
	// Anchors are the seed and exclusion words per topic, as typed (the
	// anchors grammar; a fit reads them as the pipeline reads words).
	Anchors []model.Anchor `json:"anchors,omitempty"`
	// Labels maps a document ID to its labels.
	Labels map[string][]string `json:"labels,omitempty"`
	// Stopwords are vocabulary terms left out of the model, sorted.
	Stopwords []string `json:"stopwords,omitempty"`
	// Removed are the IDs of the documents left out of the model, sorted.
	Removed []string `json:"removed,omitempty"`
	// Names maps the model's name of a topic that no anchor or label
	// names (a free topic, "topic-3") to the name the person gave it.
	Names map[string]string `json:"names,omitempty"`
}

// Progress is how far the refit in flight is.
type Progress struct {
	// Stage is "vectorizing", "initialising" (the fit sets up before
	// its first iteration), "fitting" or "reading the topics".
	Stage string `json:"stage"`
	// Iter and Total count the fit's iterations (Total 0: unknown).
	Iter  int `json:"iter"`
	Total int `json:"total"`
	// Objective is the fit's objective after the last iteration (0
	// when it has none).
	Objective float64 `json:"objective"`
	// Seconds is the time since the refit started, current when the
	// status is read.
	Seconds float64 `json:"seconds"`
}

// Status is where the session stands.
type Status struct {
	// Version counts the changes of the state (edits, undos, redos);
	// every action is based on it.
	Version int `json:"version"`
	// Fitted is the version the current round shows: Version when no
	// change waits for a refit.
	Fitted int `json:"fitted"`
	// Round is the current round's number, Rounds the number of rounds
	// saved.
	Round  int `json:"round"`
	Rounds int `json:"rounds"`
	// Refitting is set while a refit runs (or waits out the pause after
	// an edit); Progress says how far it is.
	Refitting bool      `json:"refitting"`
	Progress  *Progress `json:"progress,omitempty"`
	// Estimating is set while the current round's cross-validated
	// accuracy is computed.
	Estimating bool `json:"estimating"`
	// Error says why the refit of version ErrorVersion failed ("" when
	// the last refit did not).
	Error        string `json:"error,omitempty"`
	ErrorVersion int    `json:"error_version,omitempty"`
	// CanUndo and CanRedo say whether Undo and Redo have a round to go to.
	CanUndo bool `json:"can_undo"`
	CanRedo bool `json:"can_redo"`
	// Kind and K are the current state's.
	Kind string `json:"kind"`
	K    int    `json:"k"`
	// Accuracy is the current round's cross-validated accuracy.
	Accuracy Accuracy `json:"accuracy"`
	// Promise says what the current kind promises about seed words,
	// exclusion words and labels, for the page to say when an edit is
	// made.
	Promise string `json:"promise"`
	// Notes say what opening the project did (a resumed project, an
	// interrupted save cleaned up) and what the current round's fit
	// noted.
	Notes []string `json:"notes,omitempty"`
}

// RoundSummary describes one saved round.
type RoundSummary struct {
	// Number is the round's number, from 1; Parent the round it was
	// refitted from (0 for the first); Version the state's version it
	// fitted.
	Number  int `json:"number"`
	Parent  int `json:"parent"`
	Version int `json:"version"`
	// Created is when the fit ended (RFC 3339).
	Created string `json:"created"`
	// Changes describe the changes of the state since the parent round.
	Changes []string `json:"changes,omitempty"`
	// Kind and K are the round's.
	Kind string `json:"kind"`
	K    int    `json:"k"`
	// Seconds is the refit's time, from the start to the round shown.
	Seconds float64 `json:"seconds"`
	// Accuracy is the cross-validated accuracy (supervised kinds).
	Accuracy Accuracy `json:"accuracy"`
	// Current marks the current round; Redo a round Redo can go back to.
	Current bool `json:"current,omitempty"`
	Redo    bool `json:"redo,omitempty"`
}

// The states of an accuracy estimate (Accuracy.State).
const (
	AccuracyNone       = "none"       // nothing to estimate: no labels, or a kind that predicts none
	AccuracyEstimating = "estimating" // being computed
	AccuracyDone       = "done"       // Mean and SD hold the estimate
	AccuracyTooFew     = "too-few"    // too few labeled documents to hold any out
	AccuracyStopped    = "stopped"    // a newer refit came first
	AccuracyFailed     = "failed"     // Note says why
)

// Accuracy is a cross-validated estimate of the accuracy of a round's
// model on documents it was not told the labels of: AccuracyFolds-fold
// cross-validation over the labeled documents (stratified by label), each
// fold's held-out documents left out of that fold's fit, as `semitopic
// fit --auto` estimates. It is computed in the background after the
// round is shown.
type Accuracy struct {
	State string `json:"state"`
	// Mean and SD are the folds' mean accuracy and its standard
	// deviation, in percent.
	Mean float64 `json:"mean,omitempty"`
	SD   float64 `json:"sd,omitempty"`
	// Folds and Scored count the folds and the held-out documents scored.
	Folds  int `json:"folds,omitempty"`
	Scored int `json:"scored,omitempty"`
	// Note says what the figure is, or why there is none.
	Note string `json:"note,omitempty"`
}

// AccuracyFolds is the number of folds of the accuracy estimate.
const AccuracyFolds = 3

// TopicView is one topic of the current round.
type TopicView struct {
	// Name names the topic in edits and views: the anchor's or label's
	// name, the name the person gave a free topic, else the model's.
	Name string `json:"name"`
	// ModelName is the topic's name in the model, when it differs.
	ModelName string `json:"model_name,omitempty"`
	// Label is the label the topic serves (supervised kinds).
	Label string `json:"label,omitempty"`
	// Share is the topic's share of the corpus (0 when the kind gives
	// none).
	Share float64 `json:"share"`
	// Docs counts the documents whose largest topic weight is this
	// topic's.
	Docs int `json:"docs"`
	// Words are the top words, best first, seed words marked.
	Words []WordView `json:"words"`
	// Seeds are every seed word with its rank; Excluded the exclusion
	// words (whose weight is exactly zero).
	Seeds    []SeedView `json:"seeds,omitempty"`
	Excluded []string   `json:"excluded,omitempty"`
	// Coherence is the NPMI coherence of the top 10 words, from −1 to 1
	// (absent for a topic with fewer than two words).
	Coherence *float64 `json:"coherence,omitempty"`
	// Junk lists why the topic looks like junk ("" reasons: none).
	Junk []string `json:"junk,omitempty"`
	// Empty marks a topic the fit left unused (model.Topic.Empty).
	Empty bool `json:"empty,omitempty"`
}

// WordView is one of a topic's top words.
type WordView struct {
	Word   string  `json:"word"`
	Weight float64 `json:"weight"`
	// Seed marks a seed word of the topic.
	Seed bool `json:"seed,omitempty"`
}

// SeedView is a seed word of a topic and where the fit put it.
type SeedView struct {
	// Word is the seed word as given, Term the vocabulary's term for it.
	Word string `json:"word"`
	Term string `json:"term"`
	// Strength is the word's strength (0: the kind's default).
	Strength float64 `json:"strength,omitempty"`
	// Rank is the term's rank among the topic's words, from 1 (0: the
	// topic gives it no weight, or it is not among its top MaxWords
	// words); Weight its weight.
	Rank   int     `json:"rank"`
	Weight float64 `json:"weight"`
}

// DocView is a document as a view shows it.
type DocView struct {
	ID string `json:"id"`
	// Text is a snippet (lists) or the whole text (Document).
	Text string `json:"text"`
	// Weight is the document's weight in the topic listed (TopicDocs)
	// or the query term's weight in it (Search).
	Weight float64 `json:"weight,omitempty"`
	// Topic is the document's topic of largest weight.
	Topic string `json:"topic,omitempty"`
	// Labels are the document's labels, Predicted the model's (models
	// that predict labels).
	Labels    []string `json:"labels,omitempty"`
	Predicted []string `json:"predicted,omitempty"`
	// Mixture is the document's topic weights, largest first, summing
	// to 1 (Document only).
	Mixture []TopicWeight `json:"mixture,omitempty"`
	// Highlights are the spans of Text whose terms are among the top
	// words of the topic listed (TopicDocs) or of the document's main
	// topics (Document).
	Highlights []Highlight `json:"highlights,omitempty"`
	// Removed marks a document left out of the model.
	Removed bool `json:"removed,omitempty"`
	// Wordless marks a document the model reads no word of (none of its
	// words is in the vocabulary, or the pipeline's filters left it out):
	// the model can neither learn from its label nor predict one for it.
	Wordless bool `json:"wordless,omitempty"`
}

// TopicWeight is a document's weight on a topic.
type TopicWeight struct {
	Topic  string  `json:"topic"`
	Weight float64 `json:"weight"`
}

// Highlight is a span of a document's text, in bytes, whose term is one
// of a topic's top words.
type Highlight struct {
	Start int    `json:"start"`
	End   int    `json:"end"`
	Term  string `json:"term"`
	Topic string `json:"topic"`
}

// TermView is a vocabulary term.
type TermView struct {
	Term string `json:"term"`
	// DF counts the documents of the model holding the term.
	DF int `json:"df"`
	// Topics are the topics among whose top 10 words the term is.
	Topics []string `json:"topics,omitempty"`
}

// Diff is what a round changed against its parent round.
type Diff struct {
	Round    int `json:"round"`
	Previous int `json:"previous"`
	// Changes describe the changes of the state between the two.
	Changes []string `json:"changes,omitempty"`
	// Topics lists, per topic of the round, the words that entered and
	// left its top 10; New marks a topic the parent did not have, and
	// Gone lists the parent's topics the round has not.
	Topics []TopicDiff `json:"topics"`
	Gone   []string    `json:"gone,omitempty"`
	// Moved counts the documents (of both rounds) whose topic of largest
	// weight changed; Moves lists the first MaxMoves of them.
	Moved int    `json:"moved"`
	Moves []Move `json:"moves,omitempty"`
	// Before and After are the two rounds' accuracy estimates.
	Before Accuracy `json:"before"`
	After  Accuracy `json:"after"`
	// Checks are the round's promise checks.
	Checks Checks `json:"checks"`
}

// MaxMoves bounds the moves a Diff lists.
const MaxMoves = 100

// TopicDiff is how one topic's top 10 words changed.
type TopicDiff struct {
	Topic   string   `json:"topic"`
	New     bool     `json:"new,omitempty"`
	Entered []string `json:"entered,omitempty"`
	Left    []string `json:"left,omitempty"`
}

// Move is a document whose topic of largest weight changed.
type Move struct {
	ID   string `json:"id"`
	From string `json:"from"`
	To   string `json:"to"`
}

// Checks are the promises a round keeps or breaks: each seed word's rank
// in its topic, each excluded word's weight (exactly 0), and the labeled
// documents' predicted labels.
type Checks struct {
	Seeds    []SeedCheck    `json:"seeds,omitempty"`
	Excluded []ExcludeCheck `json:"excluded,omitempty"`
	// Labeled counts the labeled documents in the model that hold a
	// word of its vocabulary, Agree those whose predicted label is one of
	// their labels (models that predict labels); Disagree lists the first
	// MaxMoves others. Wordless counts the labeled documents that hold no
	// word of the vocabulary, which no model can predict.
	Labeled  int         `json:"labeled"`
	Agree    int         `json:"agree"`
	Disagree []LabelMiss `json:"disagree,omitempty"`
	Wordless int         `json:"wordless,omitempty"`
	// Note says what a kind cannot promise (seed words that need not
	// reach the top 10).
	Note string `json:"note,omitempty"`
}

// SeedCheck is a seed word's place in its topic after a refit.
type SeedCheck struct {
	Topic string `json:"topic"`
	Word  string `json:"word"`
	Term  string `json:"term"`
	// Rank is the term's rank in the topic, from 1 (0: no weight, or
	// not among its top MaxWords words).
	Rank int `json:"rank"`
	// Top10 reports Rank from 1 to 10.
	Top10 bool `json:"top10"`
}

// ExcludeCheck is an excluded word's weight in its topic after a refit.
type ExcludeCheck struct {
	Topic  string  `json:"topic"`
	Word   string  `json:"word"`
	Term   string  `json:"term"`
	Weight float64 `json:"weight"`
	// Zero reports Weight == 0, the promise.
	Zero bool `json:"zero"`
}

// LabelMiss is a labeled document whose predicted label is not one of its
// labels.
type LabelMiss struct {
	ID        string   `json:"id"`
	Labels    []string `json:"labels"`
	Predicted []string `json:"predicted,omitempty"`
}

// Suggestions help the person choose what to do next.
type Suggestions struct {
	// Label are documents to label next, the ones the model is least
	// sure about, spread over the topics.
	Label []DocSuggestion `json:"label"`
	// Separate are look-alike topic pairs with words that would tell
	// them apart.
	Separate []PairSuggestion `json:"separate"`
	// Junk are topics that look like junk.
	Junk []JunkSuggestion `json:"junk"`
}

// DocSuggestion is a document to label.
type DocSuggestion struct {
	ID string `json:"id"`
	// Topic is the document's topic of largest weight; Text a snippet.
	Topic string `json:"topic"`
	Text  string `json:"text"`
	// Predicted is the model's label for it (models that predict).
	Predicted []string `json:"predicted,omitempty"`
	// Reason says why it is proposed, with Score: the margin between the
	// two best label scores (smaller: less sure) or the entropy of the
	// topic mixture in nats (larger: less sure).
	Reason string  `json:"reason"`
	Score  float64 `json:"score"`
}

// PairSuggestion is a pair of topics that look alike.
type PairSuggestion struct {
	A string `json:"a"`
	B string `json:"b"`
	// Similarity is the cosine of the two topics' word weights.
	Similarity float64 `json:"similarity"`
	// WordsA and WordsB are words with much more weight in one topic than
	// in the other: seed words that would pull them apart.
	WordsA []string `json:"words_a"`
	WordsB []string `json:"words_b"`
}

// JunkSuggestion is a topic that looks like junk, and why.
type JunkSuggestion struct {
	Topic   string   `json:"topic"`
	Reasons []string `json:"reasons"`
}

// The things Export writes.
const (
	ExportModel   = "model"   // the model file (.semitopic)
	ExportAnchors = "anchors" // the anchors file
	ExportLabels  = "labels"  // the labels CSV (id,label)
	ExportReport  = "report"  // the HTML report
	ExportCommand = "command" // the `semitopic fit` command that reproduces the model
)

// Exports lists what Export writes.
func Exports() []string {
	return []string{ExportModel, ExportAnchors, ExportLabels, ExportReport, ExportCommand}
}

// ExportName returns the file name of what Export writes ("" for
// something it does not write): model.semitopic, anchors.txt,
// labels.csv, report.html, command.txt.
func ExportName(what string) string {
	return map[string]string{ExportModel: "model.semitopic", ExportAnchors: "anchors.txt", ExportLabels: "labels.csv",
		ExportReport: "report.html", ExportCommand: "command.txt"}[what]
}
