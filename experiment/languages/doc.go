// Package languages is the multilingual experiment (semitopic experiment
// languages): the same labeled document set in many languages, read once
// with the English default pipeline, as a new user would, and once with
// the language's own pipeline (text.WithLanguage). Per language it
// measures the share of stopwords among the topics' top-10 words, the
// topics' NPMI coherence, the share of the largest topic, the accuracy of
// TS-NMF against a linear SVM on the same labels, how often the language
// detector names the language, and the pipeline's speed.
//
// The documents are the AppStream metadata of Debian's desktop
// applications (the DEP-11 file Components-amd64.yml.gz that apt
// downloads with its package lists): each application's summary and
// description in each language its translators wrote, labeled by its
// first main freedesktop.org category. The file is read at run time from
// the data folder (appstream/Components-amd64.yml.gz) or from apt's lists;
// nothing of it is shipped.
package languages
