package corex20ng

import (
	"context"
	"fmt"
	"strings"

	"github.com/semitopic/semitopic/corex"
	"github.com/semitopic/semitopic/experiment/lab"
)

// seedOutcome is how one label-anchored topic came out.
type seedOutcome struct {
	// Label is the label the topic is anchored for and Topic its column.
	Label, Topic int
	// InTop is how many of the topic's anchor words rank in its top 10
	// words by MI alone, of its Anchors anchor words in the vocabulary.
	InTop, Anchors int
	// InTopWeighted is InTop by the reference's α·MI ranking
	// (corex.ByWeightedMI, the ranking model.CorEx.Topics shows), where
	// an anchor word's MI counts β times.
	InTopWeighted int
	// Share is the share of documents with p(y|x) > 0.5 and F1 that of the
	// topic's labels as a classifier of its label.
	Share, F1 float64
	// Words are the topic's top 10 words.
	Words string
}

// seedOutcomes scores the anchored topics of m. anchors[l] anchors label
// l's words to topic anchors[l].Topic; a label without words is skipped.
func seedOutcomes(m *corex.Model, anchors []anchor, labels []int) ([]seedOutcome, error) {
	var out []seedOutcome
	n, _ := m.Train.P.Dims()
	inVocab := make(map[string]bool, len(m.Vocab))
	for _, w := range m.Vocab {
		inVocab[w] = true
	}
	for l, a := range anchors {
		if len(a.Words) == 0 {
			continue
		}
		ws, err := m.TopWords(a.Topic, 10, corex.ByMI)
		if err != nil {
			return nil, err
		}
		top := map[string]bool{}
		var names []string
		for _, w := range ws {
			top[w.Term] = true
			names = append(names, w.Term)
		}
		o := seedOutcome{Label: l, Topic: a.Topic, Words: strings.Join(names, " ")}
		for _, w := range a.Words {
			if inVocab[w] {
				o.Anchors++
			}
			if top[w] {
				o.InTop++
			}
		}
		wws, err := m.TopWords(a.Topic, 10, corex.ByWeightedMI)
		if err != nil {
			return nil, err
		}
		for _, w := range wws {
			for _, aw := range a.Words {
				if w.Term == aw {
					o.InTopWeighted++
				}
			}
		}
		truth := make([]bool, len(labels))
		for i, y := range labels {
			truth[i] = y == l
		}
		o.F1 = topicF1(m.Train.P, a.Topic, truth)
		in := 0
		for i := 0; i < n; i++ {
			if m.Train.P.At(i, a.Topic) > 0.5 {
				in++
			}
		}
		o.Share = float64(in) / float64(n)
		out = append(out, o)
	}
	return out, nil
}

// seedSummary counts the topics with all and with at least one anchor word
// in their top 10 (by MI, or by α·MI with weighted).
func seedSummary(os []seedOutcome, weighted bool) (all, some int) {
	for _, o := range os {
		if weighted {
			o.InTop = o.InTopWeighted
		}
		if o.InTop == o.Anchors {
			all++
		}
		if o.InTop > 0 {
			some++
		}
	}
	return all, some
}

// permuteAnchors places label l's anchors on topic perm[l].
func permuteAnchors(anchors []anchor, perm []int) ([]anchor, error) {
	if len(perm) != len(anchors) {
		return nil, fmt.Errorf("%d positions for %d anchored topics", len(perm), len(anchors))
	}
	out := make([]anchor, len(anchors))
	for l, a := range anchors {
		out[l] = a
		out[l].Topic = perm[l]
	}
	return out, nil
}

// seedRankRow is one fit of cxSeedRank.
type seedRankRow struct {
	Start, Order         string
	Beta                 float64
	AllInTop, SomeInTop  int // by α·MI, the ranking topics shows
	AllByMI, SomeByMI    int // by MI alone
	Topics               int
	MeanF1, LargestShare float64
	Homogeneity, AMI     float64
	Outcomes             []seedOutcome
	anchors              []anchor
	model                *corex.Model
}

// cxSeedRank checks that label-anchored topics keep their anchors (issue
// 16): the Figure 3 anchors at the default strength and at β = 2, each
// anchored topic started from its anchors (the default) or as the
// reference does (Config.NumpyRandom), in the newsgroups' order and
// reversed, seed 1.
func cxSeedRank(ctx context.Context, env *lab.Env, rep *lab.Report, d *cxData, raw map[string]any) error {
	sug, err := corex.SuggestAnchors(d.bin, labelSets(d.labels), len(d.names), 5, true)
	if err != nil {
		return err
	}
	anchors := labelAnchors(sug, d.vocab)
	k := len(anchors)
	rev := make([]int, k)
	for l := range rev {
		rev[l] = k - 1 - l
	}
	maxIter := 200
	if env.Quick {
		maxIter = 40
	}
	var rows []seedRankRow
	for _, beta := range []float64{0, 2} {
		for _, ref := range []bool{false, true} {
			for _, perm := range [][]int{nil, rev} {
				r := seedRankRow{Start: "from the anchors", Order: "newsgroups'", Beta: beta, anchors: anchors}
				if ref {
					r.Start = "reference (random)"
				}
				if perm != nil {
					r.Order = "reversed"
					if r.anchors, err = permuteAnchors(anchors, perm); err != nil {
						return err
					}
				}
				terms, _ := anchorTerms(r.anchors, d.vocab)
				m, el, err := fitCorex(ctx, d.bin, corex.Config{K: k, MaxIter: maxIter, Seed: 1, Vocab: d.vocab, Seeds: terms, Beta: beta, NumpyRandom: ref})
				if err != nil {
					return err
				}
				sc, err := scoreCorex(m, d, el)
				if err != nil {
					return err
				}
				if r.Outcomes, err = seedOutcomes(m, r.anchors, d.labels); err != nil {
					return err
				}
				r.AllInTop, r.SomeInTop = seedSummary(r.Outcomes, true)
				r.AllByMI, r.SomeByMI = seedSummary(r.Outcomes, false)
				r.Topics, r.Homogeneity, r.AMI, r.model = len(r.Outcomes), sc.Homogeneity, sc.AMI, m
				for _, o := range r.Outcomes {
					r.MeanF1 += o.F1 / float64(len(r.Outcomes))
					r.LargestShare = max(r.LargestShare, o.Share)
				}
				env.Logf("seed rank, β %g, start %s, order %s: %d/%d topics keep an anchor word in their top 10, %d all of them", beta, r.Start, r.Order, r.SomeInTop, r.Topics, r.AllInTop)
				rows = append(rows, r)
			}
		}
	}
	raw["seed_rank"] = rows
	rep.H2("Do the anchored topics keep their anchors? (issue 16)")
	rep.P("The Figure 3 anchors, one topic per newsgroup, 20 topics, seed 1: for each anchored topic, whether its anchor words are among its top 10 words "+
		"as `topics` shows them — by MI, an anchor word's MI weighted by its anchor strength, as corextopic's `get_topics` ranks them by default (`weighted_rank=True`) — "+
		"and by MI alone, the F1 score of its labels (p(y|x) > 0.5) for its newsgroup and its share of the documents (corextopic#49 reports the first anchored topic taking 90–95%% of the documents). "+
		"Anchored topics start from their anchors (the default: p(y|x) ¾ where an anchor word is, ¼ elsewhere, first labels from the anchors alone) or as the reference does "+
		"(`Config.NumpyRandom`: half a random draw, half the anchors' mean presence); the topics are given in the newsgroups' order and reversed. Default β is %g.", float64(corex.DefaultBeta))
	var tab [][]string
	for _, r := range rows {
		b := fmt.Sprint(r.Beta)
		if r.Beta == 0 {
			b = fmt.Sprintf("%g (default)", float64(corex.DefaultBeta))
		}
		tab = append(tab, []string{b, r.Start, r.Order, fmt.Sprintf("%d / %d", r.SomeInTop, r.Topics), fmt.Sprintf("%d / %d", r.AllInTop, r.Topics),
			fmt.Sprintf("%d / %d", r.SomeByMI, r.Topics), fmt.Sprintf("%d / %d", r.AllByMI, r.Topics),
			fmt.Sprintf("%.3f", r.MeanF1), fmt.Sprintf("%.3f", r.LargestShare), fmt.Sprintf("%.3f", r.Homogeneity), fmt.Sprintf("%.3f", r.AMI)})
	}
	rep.Table([]string{"β", "start", "order", "topics with an anchor word in their top 10 (as `topics` shows)", "with all of them", "by MI alone: with an anchor word", "with all of them", "mean F1", "largest share of documents", "homogeneity", "AMI"}, tab)
	first := rows[0]
	var words [][]string
	for _, o := range first.Outcomes {
		words = append(words, []string{d.names[o.Label], strings.Join(first.anchors[o.Label].Words, ", "), fmt.Sprintf("%d / %d", o.InTopWeighted, o.Anchors), fmt.Sprintf("%.3f", o.F1), topicLine(first.model, o.Topic, 10, corex.ByWeightedMI)})
	}
	rep.P("The topics at the default strength, started from their anchors:")
	rep.Table([]string{"newsgroup", "anchors", "in the top 10", "F1", "top words (as `topics` shows them)"}, words)
	return nil
}
