package model

// EmptyTopics marks the topics of ts that are empty: a topic with no top
// word, or one with a share of zero when the shares are known (some topic
// of ts has a positive Weight). It is the one rule by which the report,
// the server and the topics command leave a topic out of charts and lists
// and count it among the empty ones instead.
func EmptyTopics(ts []Topic) []bool {
	known := false
	for _, t := range ts {
		known = known || t.Weight > 0
	}
	out := make([]bool, len(ts))
	for i, t := range ts {
		out[i] = len(t.Words) == 0 || known && t.Weight == 0
	}
	return out
}
