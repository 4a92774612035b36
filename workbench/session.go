package workbench

import (
	"context"
	"errors"
	"io"
)

// Session is a person's workbench over one corpus. It is safe for
// concurrent use: the views answer from the current round while a refit
// runs.
type Session struct{}

var errTODO = errors.New("workbench: not implemented yet")

// Open opens a session: it resumes the project in cfg.Project when the
// folder holds one, else it vectorizes the corpus, fits the first round
// and saves it there.
func Open(ctx context.Context, cfg Config) (*Session, error) { return nil, errTODO }

// Close stops the refit in flight and the background work, and waits for
// them; the project stays as saved.
func (s *Session) Close() error { return errTODO }

// Apply applies the edit e to the state at version base and returns the
// new version. A base other than the current version is a
// *ConflictError; an edit that names an unknown topic, word or document,
// or that the state cannot take, is an error naming it. Unless automatic
// refits are off (Config.Debounce), a refit of the new version starts
// after the pause, cancelling the one in flight.
func (s *Session) Apply(base int, e Edit) (int, error) { return 0, errTODO }

// Refit starts a refit of the state at version base now (the pause
// skipped), unless one of that version is in flight, and returns the
// version. A base other than the current version is a *ConflictError.
func (s *Session) Refit(base int) (int, error) { return 0, errTODO }

// Wait waits until the current round shows version (or a later one) and
// returns its summary; it fails when the refit of the current version
// failed, or when ctx ends.
func (s *Session) Wait(ctx context.Context, version int) (RoundSummary, error) {
	return RoundSummary{}, errTODO
}

// Status says where the session stands.
func (s *Session) Status() Status { return Status{} }

// State returns a copy of the current state (edits included that no
// round has fitted yet).
func (s *Session) State() State { return State{} }

// Undo moves back: when edits wait for a refit, to the current round's
// state (they are dropped); otherwise to the round before the current
// one, without refitting. base is as for Apply.
func (s *Session) Undo(base int) (Status, error) { return Status{}, errTODO }

// Redo moves forward to the round the last Undo left, without refitting.
func (s *Session) Redo(base int) (Status, error) { return Status{}, errTODO }

// Rounds lists the saved rounds, oldest first.
func (s *Session) Rounds() []RoundSummary { return nil }

// Topics describes the current round's topics, with n top words each
// (n ≤ 0: 10; at most MaxWords).
func (s *Session) Topics(n int) []TopicView { return nil }

// TopicDocs lists the n documents (at most MaxDocs) with the largest
// weight in topic, the topic's top words highlighted.
func (s *Session) TopicDocs(topic string, n int) ([]DocView, error) { return nil, errTODO }

// Search lists the n documents (at most MaxDocs) that hold the word or
// phrase q, read as the pipeline reads it, the most weight first.
func (s *Session) Search(q string, n int) ([]DocView, error) { return nil, errTODO }

// Document shows the document id: its whole text, topic mixture, labels
// and prediction, and the top words of its main topics highlighted.
func (s *Session) Document(id string) (DocView, error) { return DocView{}, errTODO }

// Vocabulary lists the n terms (at most MaxTerms) that start with prefix,
// the most frequent first, with their document frequencies.
func (s *Session) Vocabulary(prefix string, n int) []TermView { return nil }

// Diff says what round changed against its parent round (round 0: the
// current round).
func (s *Session) Diff(round int) (Diff, error) { return Diff{}, errTODO }

// Suggest proposes what to do next, from the current round.
func (s *Session) Suggest() Suggestions { return Suggestions{} }

// Export writes what (see Exports) of the current round to w.
func (s *Session) Export(w io.Writer, what string) error { return errTODO }

// The largest n the views give.
const (
	MaxWords = 1000
	MaxDocs  = 1000
	MaxTerms = 10000
)
