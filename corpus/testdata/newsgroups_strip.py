#!/usr/bin/python3
"""Write the fixture that checks Newsgroups.Strip against scikit-learn.

For a deterministic sample of 20 Newsgroups messages, apply scikit-learn's
own strip_newsgroup_header / strip_newsgroup_footer / strip_newsgroup_quoting
in the order fetch_20newsgroups(remove=...) applies them (headers, footers,
quotes), for every non-empty combination of the three, and write the SHA-256
of each stripped text (UTF-8). Only hashes are written, never message text.

Messages are decoded the way the Go reader decodes them: without a leading
UTF-8 byte order mark, as UTF-8, or as Latin-1 for the whole file when it is
not valid UTF-8. The sample is every 40th message in the reader's order (train tree,
then test tree; newsgroups sorted; files sorted as strings), plus every
message that is not valid UTF-8 or contains a carriage return.

It also writes newsgroups_strip_cases.json beside OUT: hand-written edge
cases (not corpus text) with scikit-learn's output for each combination, to
pin down Python's white space and split semantics.

Run with Debian's Python, which has scikit-learn 1.2.1:

    /usr/bin/python3 corpus/testdata/newsgroups_strip.py \
        ../shared/data/20news-bydate/20news-bydate.tar.gz \
        corpus/testdata/newsgroups_strip.sha256
"""

import hashlib
import json
import os
import sys
import tarfile

import sklearn
from sklearn.datasets._twenty_newsgroups import (
    strip_newsgroup_footer,
    strip_newsgroup_header,
    strip_newsgroup_quoting,
)

TREES = ("20news-bydate-train", "20news-bydate-test")
COMBOS = ("h", "f", "q", "hf", "hq", "fq", "hfq")
EVERY = 40


def decode(data):
    """Drop a UTF-8 BOM, then UTF-8, else Latin-1; the second value says which."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8"), False
    except UnicodeDecodeError:
        return data.decode("latin-1"), True


def strip(text, combo):
    if "h" in combo:
        text = strip_newsgroup_header(text)
    if "f" in combo:
        text = strip_newsgroup_footer(text)
    if "q" in combo:
        text = strip_newsgroup_quoting(text)
    return text


# Hand-written edge cases: blank lines, Python-only white space (U+001C to
# U+001F, U+0085, U+00A0, U+2028, U+3000), dash lines, CRLF, quote markers.
CASES = [
    "",
    "no blank line at all",
    "Header: x\n\nbody\n",
    "Header: x\n\nbody\n\n-- \nsig\n",
    "a\n--\nb",
    "\n\n\nbody",
    "x\x1c\n\x1d--\x1e\nsig",
    "x\n\u00a0-\u00a0\ny",
    "x\n - - \ny",
    "single line ---",
    "--\nonly dashes first",
    "text\n\n   \n",
    "  \n\n  lead\nbody\n\n",
    "> quoted\nnot\n| pipe\nIn article <x> foo writes:\nHe said: hi\n  > indented\nQuoted from x\nwrote: y\nsays: z\nwrites in w",
    "line\r\n\r\nbody\r\n-- \r\nsig\r\n",
    "a\u2028b\n\n\u3000\nc",
    "x\n\u0085\ny",
    "x\x0b\n\x0c--\ny",
    "H: 1\n\n\n\nb\n\n---\n--\n",
    "\ufeffUTF BOM kept inside\n\nx",
]


def write_cases(path):
    cases = [{"text": t, **{c: strip(t, c) for c in COMBOS}} for t in CASES]
    with open(path, "w", encoding="utf-8") as f:
        json.dump(cases, f, indent=1, ensure_ascii=True)
        f.write("\n")


def main(archive, out):
    write_cases(os.path.join(os.path.dirname(out) or ".", "newsgroups_strip_cases.json"))
    messages = {}
    with tarfile.open(archive, "r:*") as tar:
        for member in tar.getmembers():
            if not member.isfile():
                continue
            parts = member.name.split("/")
            # <tree>/<group>/<file>, possibly below one wrapping folder.
            if len(parts) >= 3 and parts[-3] in TREES:
                key = (TREES.index(parts[-3]), parts[-2], parts[-1])
                messages[key] = tar.extractfile(member).read()
    order = sorted(messages)
    lines = [
        "# SHA-256 of 20 Newsgroups messages stripped by scikit-learn %s" % sklearn.__version__,
        "# (written by newsgroups_strip.py; h = headers, f = footers, q = quotes)",
        "# id\t" + "\t".join(COMBOS),
    ]
    for i, key in enumerate(order):
        data = messages[key]
        text, latin1 = decode(data)
        if i % EVERY != 0 and not latin1 and b"\r" not in data:
            continue
        ident = "%s/%s/%s" % (TREES[key[0]], key[1], key[2])
        hashes = [
            hashlib.sha256(strip(text, c).encode("utf-8")).hexdigest() for c in COMBOS
        ]
        lines.append(ident + "\t" + "\t".join(hashes))
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print("wrote %d messages to %s" % (len(lines) - 3, out))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: newsgroups_strip.py ARCHIVE OUT")
    main(sys.argv[1], sys.argv[2])
