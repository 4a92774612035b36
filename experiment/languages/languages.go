package languages

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/semitopic/semitopic/classify"
	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/experiment/lab"
	"github.com/semitopic/semitopic/internal/cputime"
	"github.com/semitopic/semitopic/metrics"
	"github.com/semitopic/semitopic/model"
	"github.com/semitopic/semitopic/text"
	"github.com/semitopic/semitopic/text/segment"
	"github.com/semitopic/semitopic/vectorize"
)

// Experiment returns the multilingual experiment.
func Experiment() lab.Experiment {
	return lab.Experiment{
		Name:    "languages",
		Subsets: true,
		Description: "every language: Debian's AppStream descriptions of desktop applications in 20 languages, 10 categories; " +
			"stopwords among the topics' top words, coherence, TS-NMF against a linear SVM, language detection and speed, " +
			"with the English default pipeline and with --language",
		Run: func(ctx context.Context, env *lab.Env) error {
			path, err := findDEP11(env)
			if err != nil {
				return err
			}
			env.Logf("reading %s", path)
			comps, err := readDEP11(path)
			if err != nil {
				return err
			}
			return run(ctx, env, comps, filepath.Base(path), config{languages: env.Datasets})
		},
	}
}

// dep11Places are where the DEP-11 file is looked for: the data folder,
// then apt's lists (Debian's main archive, any release).
func dep11Places(env *lab.Env) []string {
	return []string{
		filepath.Join(env.Data, "appstream", "Components-amd64.yml.gz"),
		filepath.Join(string(filepath.Separator), "var", "lib", "apt", "lists", "*_main_dep11_Components-amd64.yml.gz"),
	}
}

// findDEP11 returns the first DEP-11 file of dep11Places.
func findDEP11(env *lab.Env) (string, error) {
	places := dep11Places(env)
	for _, p := range places {
		m, _ := filepath.Glob(p)
		sort.Strings(m)
		for _, f := range m {
			if _, err := os.Stat(f); err == nil {
				return f, nil
			}
		}
	}
	return "", fmt.Errorf("experiment languages needs Debian's AppStream metadata (DEP-11 Components-amd64.yml.gz; apt-get update on Debian downloads it): none at %s", strings.Join(places, " or "))
}

// allLanguages are the languages the full protocol tries, English first;
// those with too few translated descriptions are reported as such.
var allLanguages = []string{"en", "de", "fr", "es", "it", "pt", "nl", "sv", "da", "fi", "ru", "tr", "el", "id", "ca", "hu", "ro", "ar", "ja", "zh", "ko"}

// quickLanguages are those of the quick protocol.
var quickLanguages = []string{"en", "de", "ja"}

// config holds what a test changes.
type config struct {
	languages []string
	minDocs   int // languages with fewer documents are skipped (default 150)
	minClass  int // classes with fewer documents in a language are left out (default 6)
	speedSize int // characters the speed test reads per language (default 2,000,000; quick 200,000)
}

// pipelineResult is one pipeline's figures on one language.
type pipelineResult struct {
	Pipeline string `json:"pipeline"`
	Terms    int    `json:"terms"`
	// StopShare is the share of the NMF topics' top-10 words that are
	// stopwords of the language (nil without a stopword list).
	StopShare *float64 `json:"stop_share,omitempty"`
	// Stopped lists the top words StopShare counts, each as "word
	// (stopword)" with a stopword it is a form of.
	Stopped []string `json:"stopped,omitempty"`
	// NPMI is the mean NPMI coherence of the topics' top-10 words.
	NPMI float64 `json:"npmi"`
	// Largest is the largest topic's share of the corpus.
	Largest float64 `json:"largest"`
	// TSNMF is TS-NMF's test accuracy (trained on the training labels).
	TSNMF float64 `json:"tsnmf_accuracy"`
	// SVM is the linear SVM's test accuracy on the same terms and labels.
	SVM float64 `json:"svm_accuracy"`
	// Topics are the NMF topics' top-10 words.
	Topics [][]string `json:"topics"`
}

// langResult is one language's figures.
type langResult struct {
	Code    string `json:"code"`
	Name    string `json:"name"`
	Docs    int    `json:"docs"`
	Train   int    `json:"train"`
	Classes int    `json:"classes"`
	// Skipped says why the language was not measured.
	Skipped string `json:"skipped,omitempty"`
	// Detected is the share of its documents the detector names the
	// language of; DetectedAs counts the others' detections.
	Detected   float64        `json:"detected"`
	DetectedAs map[string]int `json:"detected_as,omitempty"`
	// Default is the English default pipeline, Own the language's.
	Default *pipelineResult `json:"default,omitempty"`
	Own     *pipelineResult `json:"own,omitempty"`
	// Speed is the language's own pipeline's speed.
	Speed *speedResult `json:"speed,omitempty"`
}

// speedResult is the speed of a pipeline's analyzer on the same number of
// characters of each language.
type speedResult struct {
	Chars   int     `json:"chars"`
	Docs    int     `json:"docs"`
	Seconds float64 `json:"seconds"`
	// DocsPerSec counts documents of 1,000 characters per second.
	DocsPerSec float64 `json:"docs_per_sec"`
	// English is the English pipeline's DocsPerSec on English documents
	// of as many characters, measured in turns with this one.
	English float64 `json:"english_docs_per_sec"`
}

// results is the raw results file.
type results struct {
	Source    string        `json:"source"`
	Languages []*langResult `json:"languages"`
	Load      string        `json:"load_average,omitempty"`
	// LoadEnd is the load average when the measurements ended.
	LoadEnd string `json:"load_average_end,omitempty"`
}

// run measures every language of cfg on comps and writes the report.
func run(ctx context.Context, env *lab.Env, comps []component, source string, cfg config) error {
	start := time.Now()
	if len(cfg.languages) == 0 {
		cfg.languages = allLanguages
		if env.Quick {
			cfg.languages = quickLanguages
		}
	}
	for _, code := range cfg.languages {
		if !slices.Contains(allLanguages, code) {
			return fmt.Errorf("languages: --datasets %s: not one of the experiment's languages (%s)", code, strings.Join(allLanguages, ", "))
		}
	}
	if cfg.minDocs == 0 {
		cfg.minDocs = 150
	}
	if cfg.minClass == 0 {
		cfg.minClass = 6
	}
	if cfg.speedSize == 0 {
		cfg.speedSize = 2_000_000
		if env.Quick {
			cfg.speedSize = 200_000
		}
	}
	res := &results{Source: source, Load: lab.LoadAverage()}
	// English, read in turns with each language's speed test.
	en, err := newSpeedPass(documents(comps, "en", cfg.minClass), vectorize.DefaultPipeline(), cfg.speedSize)
	if err != nil {
		return err
	}
	for _, code := range cfg.languages {
		if err := ctx.Err(); err != nil {
			return err
		}
		lr, err := measure(ctx, env, comps, code, cfg, en)
		if err != nil {
			return fmt.Errorf("languages: %s: %w", code, err)
		}
		res.Languages = append(res.Languages, lr)
	}
	res.LoadEnd = lab.LoadAverage()
	return report(env, res, start)
}

// documents returns the labeled documents of a language: the components
// translated into it, in the classes with at least minClass of them, and
// split 70/30 into training and test documents by a hash of their ID.
func documents(comps []component, code string, minClass int) []corpus.Document {
	var docs []corpus.Document
	count := map[string]int{}
	for i := range comps {
		c := &comps[i]
		class := c.class()
		if class == "" {
			continue
		}
		t, ok := c.text(code)
		if !ok {
			continue
		}
		h := fnv.New32a()
		h.Write([]byte(c.ID))
		split := corpus.SplitTrain
		if h.Sum32()%10 >= 7 {
			split = corpus.SplitTest
		}
		docs = append(docs, corpus.Document{ID: c.ID, Text: t, Labels: []string{class}, Split: split})
		count[class]++
	}
	kept := docs[:0]
	for _, d := range docs {
		if count[d.Labels[0]] >= minClass {
			kept = append(kept, d)
		}
	}
	return kept
}

// measure runs the protocol on one language.
func measure(ctx context.Context, env *lab.Env, comps []component, code string, cfg config, en *speedPass) (*langResult, error) {
	l, err := text.LookupLanguage(code)
	if err != nil {
		return nil, err
	}
	lr := &langResult{Code: code, Name: l.Name}
	docs := documents(comps, code, cfg.minClass)
	lr.Docs = len(docs)
	classes := map[string]bool{}
	for _, d := range docs {
		classes[d.Labels[0]] = true
		if d.Split == corpus.SplitTrain {
			lr.Train++
		}
	}
	lr.Classes = len(classes)
	if l.Segmenter && !slices.Contains(segment.Languages(), code) {
		lr.Skipped = "this build has no dictionary for it"
		env.Logf("%s: skipped: %s", code, lr.Skipped)
		return lr, nil
	}
	if lr.Docs < cfg.minDocs || lr.Classes < 2 {
		lr.Skipped = fmt.Sprintf("%d translated descriptions in %d classes (at least %d needed)", lr.Docs, lr.Classes, cfg.minDocs)
		env.Logf("%s: skipped: %s", code, lr.Skipped)
		return lr, nil
	}
	env.Logf("%s: %d documents, %d classes", code, lr.Docs, lr.Classes)
	lr.DetectedAs = map[string]int{}
	for _, d := range docs {
		det, err := text.DetectLanguage([]string{d.Text})
		switch {
		case err == nil && det.Language.Code == code:
			lr.Detected++
		case err == nil:
			lr.DetectedAs[det.Language.Code]++
		case det.Found != "":
			lr.DetectedAs[det.Found]++ // a language the pipeline does not know
		default:
			lr.DetectedAs["?"]++ // too short to tell
		}
	}
	lr.Detected /= float64(len(docs))
	def := vectorize.DefaultPipeline()
	own := def
	if own.Text, err = text.WithLanguage(def.Text, code); err != nil {
		return nil, err
	}
	stop, err := stopForms(code, def, own)
	if err != nil {
		return nil, err
	}
	if lr.Default, err = measurePipeline(ctx, docs, def, stop, lr.Classes); err != nil {
		return nil, fmt.Errorf("default pipeline: %w", err)
	}
	if lr.Own, err = measurePipeline(ctx, docs, own, stop, lr.Classes); err != nil {
		return nil, fmt.Errorf("own pipeline: %w", err)
	}
	if lr.Speed, err = measureSpeed(docs, own, cfg.speedSize, en); err != nil {
		return nil, err
	}
	return lr, nil
}

// stopForms returns every form a stopword of the language's list
// (Language.Stopwords; not the function words semitopic adds,
// MoreStopwords, so that the measure does not follow our own lists) takes
// in the terms of the two pipelines (normalised, lemmatized or stemmed),
// each with the first stopword of that form, or nil when the language has
// no list.
func stopForms(code string, pls ...vectorize.Pipeline) (map[string]string, error) {
	l, err := text.LookupLanguage(code)
	if err != nil || l.Stopwords == "" {
		return nil, err
	}
	words, err := text.Stopwords(l.Stopwords)
	if err != nil {
		return nil, err
	}
	forms := map[string]string{}
	for _, pl := range pls {
		o := pl.Text
		o.Stopwords = nil
		a, err := text.NewAnalyzer(o)
		if err != nil {
			return nil, err
		}
		for _, w := range words {
			n := text.Normalize(w, o.NFKC, o.StripAccents, o.Case)
			for _, f := range []string{n, a.Morph(n)} {
				if _, ok := forms[f]; !ok {
					forms[f] = w
				}
			}
		}
	}
	return forms, nil
}

// measurePipeline fits NMF with one topic per class on every document and
// TS-NMF and the linear SVM on the training documents, through pl.
func measurePipeline(ctx context.Context, docs []corpus.Document, pl vectorize.Pipeline, stop map[string]string, k int) (*pipelineResult, error) {
	r := &pipelineResult{Pipeline: pl.String()}
	_, all, err := pl.FitTransform(ctx, docs)
	if err != nil {
		return nil, err
	}
	r.Terms = len(all.Vocab)
	f, err := model.Fit(ctx, model.Matrix(all.X, all.Vocab), model.Options{Kind: model.KindNMF, K: k})
	if err != nil {
		return nil, err
	}
	topics, err := f.Model.Topics(10)
	if err != nil {
		return nil, err
	}
	col := map[string]int{}
	for j, t := range all.Vocab {
		col[t] = j
	}
	var idx [][]int
	stopped, words := 0, 0
	for _, t := range topics {
		var ws []string
		var ix []int
		for _, w := range t.Words {
			ws = append(ws, w.Word)
			ix = append(ix, col[w.Word])
			words++
			if sw, ok := stop[w.Word]; ok {
				stopped++
				r.Stopped = append(r.Stopped, fmt.Sprintf("%s (%s)", w.Word, sw))
			}
		}
		r.Topics = append(r.Topics, ws)
		idx = append(idx, ix)
		r.Largest = max(r.Largest, t.Weight)
	}
	if stop != nil && words > 0 {
		s := float64(stopped) / float64(words)
		r.StopShare = &s
	}
	npmi, err := metrics.NPMI(all.X, idx)
	if err != nil {
		return nil, err
	}
	r.NPMI = npmi.Mean
	// Supervised: the vocabulary of the training documents.
	var train, test []corpus.Document
	for _, d := range docs {
		if d.Split == corpus.SplitTrain {
			train = append(train, d)
		} else {
			test = append(test, d)
		}
	}
	v, tr, err := pl.FitTransform(ctx, train)
	if err != nil {
		return nil, err
	}
	te, err := v.Transform(ctx, test)
	if err != nil {
		return nil, err
	}
	labels := func(ds []corpus.Document) [][]string {
		out := make([][]string, len(ds))
		for i, d := range ds {
			out[i] = d.Labels
		}
		return out
	}
	ts, err := model.Fit(ctx, model.Matrix(tr.X, tr.Vocab), model.Options{Kind: model.KindTSNMF, Supervision: model.Supervision{Labels: labels(tr.Docs)}})
	if err != nil {
		return nil, err
	}
	p, ok := model.AsPredictor(ts.Model)
	if !ok {
		return nil, errors.New("TS-NMF predicts no label")
	}
	pred, err := p.Predict(ctx, te.X)
	if err != nil {
		return nil, err
	}
	right, labeled, _, err := pred.Accuracy(labels(te.Docs))
	if err != nil || labeled == 0 {
		return nil, fmt.Errorf("TS-NMF accuracy: %v (%d labeled)", err, labeled)
	}
	r.TSNMF = float64(right) / float64(labeled)
	classOf := map[string]int{}
	ys := func(ds []corpus.Document) []int {
		y := make([]int, len(ds))
		for i, d := range ds {
			c, ok := classOf[d.Labels[0]]
			if !ok {
				c = len(classOf)
				classOf[d.Labels[0]] = c
			}
			y[i] = c
		}
		return y
	}
	ytr, yte := ys(tr.Docs), ys(te.Docs)
	svm := &classify.LinearSVC{}
	if err := svm.Fit(ctx, tr.X, ytr); err != nil {
		return nil, err
	}
	yp, err := svm.Predict(te.X)
	if err != nil {
		return nil, err
	}
	if r.SVM, err = metrics.Accuracy(yte, yp); err != nil {
		return nil, err
	}
	return r, nil
}

// speedRepeats is how many times measureSpeed reads the documents; it
// keeps the fastest pass, the one a loaded machine disturbed least.
const speedRepeats = 5

// speedPass is the text of a speed test: documents repeated until they
// hold a number of characters, and the analyzer that reads them.
type speedPass struct {
	a     *text.Analyzer
	texts []string
	chars int
}

// newSpeedPass prepares the speed test of pl on docs.
func newSpeedPass(docs []corpus.Document, pl vectorize.Pipeline, size int) (*speedPass, error) {
	a, err := text.NewAnalyzer(pl.Text)
	if err != nil {
		return nil, err
	}
	p := &speedPass{a: a}
	for p.chars < size && len(docs) > 0 {
		for _, d := range docs {
			p.texts = append(p.texts, d.Text)
			p.chars += utf8.RuneCountInString(d.Text)
			if p.chars >= size {
				break
			}
		}
	}
	return p, nil
}

// run reads the texts once with a new Session (so that no pass reuses
// another's cache) and returns the seconds of processor time it took,
// which the other processes of a loaded machine do not lengthen (the
// seconds on the clock where the system does not say).
func (p *speedPass) run() float64 {
	sess := p.a.Session()
	var buf []string
	t := time.Now()
	c, ok := cputime.Now()
	for _, s := range p.texts {
		buf = sess.AppendTokens(buf[:0], s)
	}
	if c2, ok2 := cputime.Now(); ok && ok2 {
		return (c2 - c).Seconds()
	}
	return time.Since(t).Seconds()
}

// measureSpeed times the analyzer of pl on the documents, repeated until
// they hold size characters, and English's (en) on as many characters,
// the two passes taking turns so that the machine's load weighs on both
// alike: the fastest of speedRepeats passes of each.
func measureSpeed(docs []corpus.Document, pl vectorize.Pipeline, size int, en *speedPass) (*speedResult, error) {
	p, err := newSpeedPass(docs, pl, size)
	if err != nil {
		return nil, err
	}
	s := &speedResult{Chars: p.chars, Docs: len(p.texts)}
	var best, bestEn float64
	for r := 0; r < speedRepeats; r++ {
		if d := p.run(); r == 0 || d < best {
			best = d
		}
		if en != nil {
			if d := en.run(); r == 0 || d < bestEn {
				bestEn = d
			}
		}
	}
	s.Seconds = best
	if best > 0 {
		s.DocsPerSec = float64(p.chars) / 1000 / best
	}
	if bestEn > 0 {
		s.English = float64(en.chars) / 1000 / bestEn
	}
	return s, nil
}

// counts formats the largest counts of m as "es 259, fr 74, pt 17".
func counts(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	var parts []string
	for i, k := range keys {
		if i == 4 {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	return strings.Join(parts, ", ")
}

func pct(f float64) string { return fmt.Sprintf("%.1f%%", 100*f) }

func pctp(f *float64) string {
	if f == nil {
		return "–"
	}
	return pct(*f)
}

// report writes languages.md and languages.json, of work begun at start.
func report(env *lab.Env, res *results, start time.Time) error {
	r := lab.NewReport(env, "languages", "Every language: stopwords, stems and word segmentation beyond English")
	r.Since(start)
	if err := r.JSON("languages.json", res); err != nil {
		return err
	}
	r.P("The same labeled document set in many languages: the AppStream descriptions of Debian's desktop applications "+
		"(`%s`, the DEP-11 metadata apt downloads; each application's summary and description in every language its translators wrote, "+
		"descriptions identical to the English original left out), labeled by the application's first main freedesktop.org category "+
		"(10 classes: AudioVideo, Development, Education, Game, Graphics, Network, Office, Science, System, Utility; classes with fewer "+
		"than 6 documents in a language left out). Each language is read twice: with the English default pipeline, as a new user would "+
		"(`semitopic fit` without `--language`), and with the language's own (`--language CODE`: its stopword lists, its Snowball "+
		"stemmer where there is one, UAX #29 words, the dictionary segmenter for Chinese and Japanese). 70%% of the documents (by a hash "+
		"of the application's ID) train TS-NMF and a linear SVM on the same terms; the other 30%% test them.", res.Source)
	r.H2("By language")
	r.P("*stopwords*: share of the top-10 words of NMF's topics (one per class, fitted on every document) that are stopwords of the " +
		"language (the NLTK list, or a form of one: its stem, as the pipeline has it; Japanese: semitopic-ja; Greek: semitopic-el; Korean has none; " +
		"not the function words semitopic adds for Turkish, Catalan and Hungarian, so that the measure does not follow our own lists), " +
		"default → own pipeline; the goal is at most 2%%. *NPMI*: mean " +
		"NPMI coherence of those words over the documents. *largest*: the largest topic's share of the corpus. *TS-NMF* and *SVM*: test " +
		"accuracy. *detected*: share of the language's documents that the detector (`--language auto`) names it for, one document at a time. " +
		"For Chinese and Japanese the default pipeline's words are sentence fragments (see the top words below), which no stop list holds " +
		"and which each occur in a document or two: their 0%% stopwords and their high NPMI say nothing; the accuracy columns show the difference.")
	header := []string{"language", "docs (train)", "classes", "detected", "stopwords", "NPMI", "largest", "TS-NMF", "SVM"}
	var rows [][]string
	var skipped []string
	for _, l := range res.Languages {
		if l.Skipped != "" {
			skipped = append(skipped, fmt.Sprintf("%s (%s): %s", l.Code, l.Name, l.Skipped))
			continue
		}
		d, o := l.Default, l.Own
		rows = append(rows, []string{
			fmt.Sprintf("%s %s", l.Code, l.Name), fmt.Sprintf("%d (%d)", l.Docs, l.Train), fmt.Sprint(l.Classes), pct(l.Detected),
			pctp(d.StopShare) + " → " + pctp(o.StopShare),
			fmt.Sprintf("%.3f → %.3f", d.NPMI, o.NPMI),
			pct(d.Largest) + " → " + pct(o.Largest),
			pct(d.TSNMF) + " → " + pct(o.TSNMF),
			pct(d.SVM) + " → " + pct(o.SVM),
		})
	}
	r.Table(header, rows)
	var confused []string
	for _, l := range res.Languages {
		if l.Skipped == "" && l.Detected < 0.95 {
			confused = append(confused, fmt.Sprintf("%s %s (%s)", l.Code, pct(l.Detected), counts(l.DetectedAs)))
		}
	}
	if len(confused) > 0 {
		r.P("Languages the detector names for fewer than 95%% of their documents, with what it said instead (\"?\": too short to tell): %s. "+
			"The detector (whatlanggo) has no Catalan; Danish and Norwegian are close; the Japanese, Chinese and Korean descriptions "+
			"that are mostly product names and English terms read as European languages; and some of the original (C) descriptions "+
			"are written in French.", strings.Join(confused, "; "))
	}
	var stopped []string
	for _, l := range res.Languages {
		if l.Skipped == "" && len(l.Own.Stopped) > 0 {
			stopped = append(stopped, fmt.Sprintf("%s %s", l.Code, strings.Join(l.Own.Stopped, ", ")))
		}
	}
	if len(stopped) > 0 {
		r.P("The top words the own pipelines' stopword shares count, each with the stopword it is a form of: %s. A stem that a "+
			"stopword shares with other words counts whether or not the topic's word is the stopword: in the own pipeline the "+
			"listed stopwords were removed before stemming, so such a word is made of the other words of that stem.",
			strings.Join(stopped, "; "))
	}
	if len(skipped) > 0 {
		r.P("Not measured: %s.", strings.Join(skipped, "; "))
	}
	r.H2("Top words")
	r.P("The first three NMF topics' top-10 words, default pipeline, then the language's own.")
	for _, l := range res.Languages {
		if l.Skipped != "" || l.Code == "en" {
			continue
		}
		var b strings.Builder
		for i := 0; i < 3 && i < len(l.Default.Topics); i++ {
			fmt.Fprintf(&b, "default %d: %s\n", i, strings.Join(l.Default.Topics[i], " "))
		}
		for i := 0; i < 3 && i < len(l.Own.Topics); i++ {
			fmt.Fprintf(&b, "own     %d: %s\n", i, strings.Join(l.Own.Topics[i], " "))
		}
		r.P("**%s (%s)**", l.Name, l.Code)
		r.Code(strings.TrimRight(b.String(), "\n"))
	}
	r.H2("Speed")
	r.P("The language's own pipeline's analyzer (normalisation, tokens, segmentation, stopwords, stems; no vocabulary) on the "+
		"language's documents repeated to the same number of characters, one core, the fastest of %d passes in processor time (which other processes do not lengthen), in documents of 1,000 characters per second; "+
		"each pass takes turns with one of the English default pipeline on as many characters of the English descriptions, so that the ratio compares passes made under the same load. "+
		"The goal is German "+
		"and Japanese within 2× of English. Load average at the start of the run: %s, at its end: %s (compare the ratios, not the figures, which follow the machine's load; "+
		"the ratios themselves move from run to run, by up to a third on a loaded machine: the English row, English against itself in turns, shows how far).", speedRepeats, res.Load, res.LoadEnd)
	var srows [][]string
	var over []string
	for _, l := range res.Languages {
		if l.Speed == nil {
			continue
		}
		ratio := "–"
		if l.Speed.English > 0 && l.Speed.DocsPerSec > 0 {
			x := l.Speed.English / l.Speed.DocsPerSec
			ratio = fmt.Sprintf("%.2f×", x)
			if x > 2 {
				over = append(over, fmt.Sprintf("%s (%s)", l.Name, ratio))
			}
		}
		srows = append(srows, []string{fmt.Sprintf("%s %s", l.Code, l.Name), fmt.Sprint(l.Speed.Chars), fmt.Sprintf("%.0f", l.Speed.DocsPerSec),
			fmt.Sprintf("%.0f", l.Speed.English), ratio})
	}
	r.Table([]string{"language", "characters", "docs of 1,000 chars / s", "English, in turns", "English ÷ language"}, srows)
	if len(over) > 0 {
		r.P("Over 2× of English: %s.", strings.Join(over, ", "))
	}
	r.P("Where the time goes (the profiles of `go test -run '^$' -bench . -cpuprofile cpu.out` in `text/segment`, and of " +
		"`BenchmarkAnalyzer` in `text`): Japanese spends nearly all of it in the lattice of `text/segment`, which makes " +
		"a node for every reading of every IPADIC word that starts at each character and joins it to the best node of each " +
		"right context id ending there through the 1,316 × 1,316 table of connection costs (3.4 MB), after walking the " +
		"dictionary's double array (10 MB) byte by byte: look-ups mostly outside the processor's first caches, " +
		"the price of cutting as MeCab and kagome do (TestKagomeAgreement); kagome's own tokenizer is slower still on " +
		"the same sample (`go test -run '^$' -bench 'Segment/ja|JapaneseKagome' ./text/segment` prints both in " +
		"characters per second). Chinese spends much of it in its " +
		"dictionary segmenter (a walk of the trie of words from every character, with a binary search among the " +
		"continuations of each prefix) and the rest in the passes every language makes: normalisation, the UAX #29 words " +
		"of package text, and the length and stopword filters. Those passes and the Snowball stemmers take the time of the " +
		"other languages; the passes decode the characters of one and two bytes (the Latin, Greek, Cyrillic and Arabic " +
		"letters) inline and take the common pieces of text (runs of letters, or of Han and kana, between punctuation) in " +
		"one step each, falling back to the rules of UAX #29 for the others.")
	return r.Finish()
}
