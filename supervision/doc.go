// Package supervision is the one form in which semitopic's algorithms take
// guidance by terms: seed terms, which steer a topic towards them, and
// excluded terms, which a topic may not use. Both name a topic and a term
// by index — the term is a column of the data matrix — so the package
// knows nothing of words or vocabularies; package model translates a
// person's seed words into Terms.
//
// Every algorithm that takes such guidance takes a Terms — nmf (Guided NMF,
// and TS-NMF with seed terms), ssnmf (Guided SSNMF), corex (anchors),
// lda (seeded and z-labels LDA) — or its exclusions (theme), and reads a
// seed's Strength on its own scale: 0 always means that algorithm's
// default. An exclusion is exact in every algorithm: the topic's weight
// for the term is zero throughout the fit.
//
// It sits below every algorithm package and imports none of them.
package supervision
