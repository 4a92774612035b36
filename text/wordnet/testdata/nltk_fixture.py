#!/usr/bin/python3
"""Regenerate the NLTK reference fixtures for package text/wordnet.

Run from the repository root with Debian's NLTK (python3-nltk 3.8) and
Debian's wordnet-base installed:

    /usr/bin/python3 text/wordnet/testdata/nltk_fixture.py \
        --wordnet /usr/share/wordnet \
        --brown ../shared/data/brown/brown.zip \
        --out text/wordnet/testdata

NLTK needs no nltk_data of its own: the script builds a temporary
NLTK_DATA folder whose corpora/wordnet holds symbolic links to the
Debian WordNet 3.0 files (plus the small "lexnames" table that NLTK reads
at start-up and Debian does not ship as a file), then asks NLTK's
WordNetLemmatizer for every word.

It writes two gzip files with fixed headers (no time stamp, no name), so
the same inputs always give the same bytes:

nltk_lemmas.tsv.gz
    One row per word of a deterministic word list: every distinct
    lowercase ASCII-alphabetic Brown token (tag stripped after the last
    '/'), every form and base form in the four exception lists, and
    regular inflections (+s, +es, +ed, +ing, +er, +est, +ies, +men) of
    every 8th index lemma. Columns: the word, then
    WordNetLemmatizer().lemmatize(word, pos) for pos n, v, a, r, s (an
    empty cell means "the word itself"), then the full wn._morphy lists
    for the parts of speech where that list has two or more entries, as
    "pos=cand,cand;pos=cand,...". Every row holds at least one cell.

nltk_index.tsv.gz
    For each part of speech (n, v, a, r, s): the number of lemmas NLTK
    holds for it and the SHA-256 of those lemmas sorted and joined by
    "\n" ("count" rows); then every index lemma whose own lemmatization
    is a different word ("fix" rows: pos, lemma, lemmatize(lemma, pos)).
    Every other index lemma is a fixed point of lemmatize.

Only the word/lemma tables are written; no Brown text is kept.
"""

import argparse
import gzip
import hashlib
import io
import os
import re
import shutil
import sys
import tempfile
import zipfile

POS = ["n", "v", "a", "r", "s"]

# The WordNet 3.0 lexicographer file names (lexnames(5WN)). NLTK reads this
# table when it opens WordNet; the lemmatizer does not use it.
LEXNAMES = (
    "adj.all adj.pert adv.all noun.Tops noun.act noun.animal noun.artifact "
    "noun.attribute noun.body noun.cognition noun.communication noun.event "
    "noun.feeling noun.food noun.group noun.location noun.motive noun.object "
    "noun.person noun.phenomenon noun.plant noun.possession noun.process "
    "noun.quantity noun.relation noun.shape noun.state noun.substance "
    "noun.time verb.body verb.change verb.cognition verb.communication "
    "verb.competition verb.consumption verb.contact verb.creation "
    "verb.emotion verb.motion verb.perception verb.possession verb.social "
    "verb.stative verb.weather adj.ppl"
).split()
CATEGORY = {"noun": 1, "verb": 2, "adj": 3, "adv": 4}

WN_FILES = [
    kind + "." + part
    for kind in ("index", "data")
    for part in ("noun", "verb", "adj", "adv")
] + [part + ".exc" for part in ("noun", "verb", "adj", "adv")]

SUFFIXES = ["s", "es", "ed", "ing", "er", "est", "ies", "men"]


def make_nltk_data(wordnet_dir, root):
    """Build an NLTK_DATA folder under root that points at wordnet_dir."""
    wn = os.path.join(root, "corpora", "wordnet")
    os.makedirs(wn)
    os.makedirs(os.path.join(root, "corpora", "omw-1.4"))
    for name in WN_FILES:
        src = os.path.join(wordnet_dir, name)
        if not os.path.exists(src):
            sys.exit("missing WordNet file %s" % src)
        os.symlink(os.path.abspath(src), os.path.join(wn, name))
    with open(os.path.join(wn, "lexnames"), "w") as f:
        for i, name in enumerate(LEXNAMES):
            f.write("%02d\t%s\t%d\n" % (i, name, CATEGORY[name.split(".")[0]]))


def brown_words(path):
    """Distinct lowercase ASCII-alphabetic Brown tokens."""
    words = set()
    name_re = re.compile(r"^brown/c[a-z][0-9][0-9]$")
    word_re = re.compile(r"^[a-z]+$")
    with zipfile.ZipFile(path) as z:
        for name in sorted(z.namelist()):
            if not name_re.match(name):
                continue
            text = z.read(name).decode("ascii")
            for tok in text.split():
                word = tok.rsplit("/", 1)[0].lower()
                if word_re.match(word):
                    words.add(word)
    return words


def exception_words(wordnet_dir):
    words = set()
    for part in ("noun", "verb", "adj", "adv"):
        with open(os.path.join(wordnet_dir, part + ".exc"), encoding="ascii") as f:
            for line in f:
                words.update(line.split())
    return words


def write_gzip(path, text):
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", compresslevel=9,
                       fileobj=buf, mtime=0) as g:
        g.write(text.encode("utf-8"))
    with open(path, "wb") as f:
        f.write(buf.getvalue())
    return len(buf.getvalue())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--wordnet", default="/usr/share/wordnet")
    ap.add_argument("--brown", required=True, help="NLTK's brown.zip")
    ap.add_argument("--out", required=True, help="output folder")
    args = ap.parse_args()

    tmp = tempfile.mkdtemp(prefix="nltk_data_")
    try:
        make_nltk_data(args.wordnet, tmp)
        os.environ["NLTK_DATA"] = tmp
        import warnings
        warnings.simplefilter("ignore")
        import nltk
        from nltk.corpus import wordnet as wn
        from nltk.stem import WordNetLemmatizer

        nltk.data.path[:] = [tmp]
        wnl = WordNetLemmatizer()
        wn.ensure_loaded()
        index = wn._lemma_pos_offset_map

        # Index summary and the lemmas that are not fixed points.
        rows = ["# generated by nltk_fixture.py with NLTK %s; do not edit"
                % nltk.__version__]
        fixes = []
        lemmas = {}
        for pos in POS:
            names = sorted(l for l in index if pos in index[l])
            lemmas[pos] = names
            digest = hashlib.sha256("\n".join(names).encode("utf-8")).hexdigest()
            rows.append("count\t%s\t%d\t%s" % (pos, len(names), digest))
            for l in names:
                got = wnl.lemmatize(l, pos)
                if got != l:
                    fixes.append("fix\t%s\t%s\t%s" % (pos, l, got))
        size = write_gzip(os.path.join(args.out, "nltk_index.tsv.gz"),
                          "\n".join(rows + fixes) + "\n")
        print("nltk_index.tsv.gz: %d non-fixed lemmas, %d bytes"
              % (len(fixes), size))

        # The word list.
        words = brown_words(args.brown)
        nbrown = len(words)
        words |= exception_words(args.wordnet)
        every = sorted(set(l for pos in "nvar" for l in lemmas[pos]))
        for l in every[::8]:
            for suf in SUFFIXES:
                words.add(l + suf)
        words = sorted(words)

        rows = ["# generated by nltk_fixture.py with NLTK %s; do not edit"
                % nltk.__version__,
                "# word\tn\tv\ta\tr\ts\tmorphy lists with 2+ entries"]
        multi_rows = 0
        for w in words:
            if "\t" in w or "\n" in w or w.startswith("#"):
                sys.exit("word %r cannot be stored in the TSV" % w)
            cells = []
            multi = []
            for pos in POS:
                lemma = wnl.lemmatize(w, pos)
                cands = wn._morphy(w, pos)
                # The lemmatizer's own definition, checked so that the
                # fixture's two kinds of column cannot disagree.
                want = min(cands, key=len) if cands else w
                if lemma != want:
                    sys.exit("NLTK disagrees with itself on %r/%s" % (w, pos))
                if any("," in c or ";" in c for c in cands):
                    sys.exit("candidate of %r cannot be stored" % w)
                cells.append("" if lemma == w else lemma)
                if len(cands) >= 2:
                    multi.append("%s=%s" % (pos, ",".join(cands)))
            if multi:
                multi_rows += 1
            rows.append("\t".join([w] + cells + [";".join(multi)]))
        size = write_gzip(os.path.join(args.out, "nltk_lemmas.tsv.gz"),
                          "\n".join(rows) + "\n")
        print("nltk_lemmas.tsv.gz: %d words (%d from Brown), %d with several "
              "candidates, %d bytes" % (len(words), nbrown, multi_rows, size))
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
