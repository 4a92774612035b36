package model

// ScoreKind says what the label scores of a supervised model's Predict
// are: its Name heads a score column ("margin:LABEL") and its Doc says in
// a sentence what the number means.
type ScoreKind struct {
	// Name is a short name of the score: "weight", "proportion",
	// "class-score", "theme-score", "log-prob", "logit" or "margin".
	Name string `json:"name"`
	// Doc says what the score is, its range, and that the label with the
	// highest is predicted.
	Doc string `json:"doc"`
}

// ScoreKindOf returns what m's label scores are, from its readout
// (ReadoutOf) and, for the native one, its kind (each model type's
// scoreKind says): the one place that names them, for predict's columns,
// the server's responses and their documentation.
func ScoreKindOf(m Model) ScoreKind {
	switch ReadoutOf(m) {
	case ReadoutTopics:
		return ScoreKind{"logit", "the logit of a logistic regression on the document's topic weights (the topics readout): any real number, not a probability; the highest is predicted"}
	case ReadoutTermsTopics:
		return ScoreKind{"margin", "the margin (decision value) of a linear SVM on the document's terms and topic weights (the terms+topics readout): any real number, negative when the SVM says no; the highest is predicted"}
	}
	if n, ok := m.(interface{ scoreKind() ScoreKind }); ok {
		return n.scoreKind()
	}
	return ScoreKind{"score", "a score per label; the highest is predicted"}
}
