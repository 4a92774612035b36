package docs

import (
	"bufio"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

var (
	// inlineLink matches [text](target) and ![alt](target), with an
	// optional "title" after the target.
	inlineLink = regexp.MustCompile(`!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`)
	// refDefinition matches a reference-style link's definition, [name]: target.
	refDefinition = regexp.MustCompile(`^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$`)
	// htmlLink matches href="…" and src="…" in inline HTML.
	htmlLink = regexp.MustCompile(`(?:href|src)="([^"]+)"`)
	// codeSpan matches an inline code span, whose text is not a link.
	codeSpan = regexp.MustCompile("`+[^`]*`+")
	// scheme matches a URL scheme, as in https: or mailto:.
	scheme = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
)

// markdownLink is one link of a Markdown file.
type markdownLink struct {
	line   int
	target string
}

// markdownLinks returns the links of a Markdown text, outside fenced code
// blocks and code spans, and the anchors of its headings as GitHub makes
// them.
func markdownLinks(src string) (links []markdownLink, anchors []string) {
	seen := map[string]int{}
	fence := ""
	sc := bufio.NewScanner(strings.NewReader(src))
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			fence = trimmed[:3]
			continue
		}
		if h, ok := heading(line); ok {
			a := slug(h)
			if k := seen[a]; k > 0 {
				anchors = append(anchors, fmt.Sprintf("%s-%d", a, k))
			} else {
				anchors = append(anchors, a)
			}
			seen[a]++
		}
		text := codeSpan.ReplaceAllString(line, "")
		for _, re := range []*regexp.Regexp{inlineLink, refDefinition, htmlLink} {
			for _, g := range re.FindAllStringSubmatch(text, -1) {
				links = append(links, markdownLink{line: n, target: g[1]})
			}
		}
	}
	return links, anchors
}

// heading returns the text of an ATX heading line ("## Title").
func heading(line string) (string, bool) {
	if !strings.HasPrefix(line, "#") {
		return "", false
	}
	text := strings.TrimLeft(line, "#")
	if len(line)-len(text) > 6 || (text != "" && text[0] != ' ') {
		return "", false
	}
	return strings.TrimSpace(strings.TrimRight(strings.TrimSpace(text), "#")), true
}

// slug is the anchor GitHub gives a heading: lower case, punctuation and
// symbols dropped, spaces made hyphens.
func slug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// checkLink checks one link of the Markdown file rel (a path relative to
// the repository root, with slashes) and returns what is wrong with it, or
// "". anchorsOf returns the heading anchors of a Markdown file of the
// repository, and whether it exists.
func checkLink(root, rel, target string, anchorsOf func(rel string) ([]string, bool)) string {
	if scheme.MatchString(target) {
		if u, err := url.Parse(target); err == nil && (u.Scheme == "http" || u.Scheme == "https" || u.Scheme == "mailto") {
			return "" // not followed: the tests use no network
		}
		return "an absolute or machine-specific link; link to files of the repository by relative path"
	}
	if strings.HasPrefix(target, "/") || strings.HasPrefix(target, `\`) {
		return "an absolute path; link to files of the repository by relative path"
	}
	path, anchor, _ := strings.Cut(target, "#")
	if p, err := url.PathUnescape(path); err == nil {
		path = p
	}
	dest := rel
	if path != "" {
		dest = filepath.ToSlash(filepath.Join(filepath.Dir(rel), path))
		if dest == ".." || strings.HasPrefix(dest, "../") {
			return "points outside the repository"
		}
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(dest))); err != nil {
			return "no such file in the repository: " + dest
		}
	}
	if anchor == "" || !strings.HasSuffix(dest, ".md") {
		return ""
	}
	anchors, ok := anchorsOf(dest)
	if !ok {
		return "cannot read " + dest
	}
	if !slices.Contains(anchors, anchor) {
		return fmt.Sprintf("%s has no heading with the anchor #%s", dest, anchor)
	}
	return ""
}

// TestLinks checks every relative link of the repository's Markdown files
// (the README, CONTRIBUTING.md, docs/, the nested modules' READMEs): the
// file it names exists in the repository, the heading its #anchor names
// exists, and no link is an absolute path. Web links are not followed.
func TestLinks(t *testing.T) {
	root, _ := moduleRoot(t)
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".md") {
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return err
			}
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, must := range []string{"README.md", "CONTRIBUTING.md", "docs/guide.md"} {
		if !slices.Contains(files, must) {
			t.Fatalf("the walk of %s found no %s: it is broken", root, must)
		}
	}
	cache := map[string][]string{}
	anchorsOf := func(rel string) ([]string, bool) {
		if a, ok := cache[rel]; ok {
			return a, true
		}
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			return nil, false
		}
		_, a := markdownLinks(string(src))
		cache[rel] = a
		return a, true
	}
	checked := 0
	for _, rel := range files {
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		links, _ := markdownLinks(string(src))
		for _, l := range links {
			checked++
			if msg := checkLink(root, rel, l.target, anchorsOf); msg != "" {
				t.Errorf("%s:%d: link %s: %s", rel, l.line, l.target, msg)
			}
		}
	}
	if checked < 50 {
		t.Errorf("only %d links found in %d Markdown files: the link parser is broken", checked, len(files))
	}
}

// TestLinkChecks runs the link parser and checker on small inputs with one
// fault each, so that TestLinks cannot pass by checking nothing.
func TestLinkChecks(t *testing.T) {
	src := strings.Join([]string{
		"# Title",
		"## Quick start: the `fit` command — in five lines",
		"## Quick start: the `fit` command — in five lines",
		"See [guide](docs/guide.md#in-short), ![chart](docs/x.svg \"a chart\") and [web](https://example.com).",
		"`[not a link](nowhere.md)`",
		"```",
		"[not a link either](nowhere.md)",
		"## not a heading",
		"```",
		"[ref]: CONTRIBUTING.md#package-map",
		`<img src="docs/y.png">`,
	}, "\n")
	links, anchors := markdownLinks(src)
	var targets []string
	for _, l := range links {
		targets = append(targets, fmt.Sprintf("%d %s", l.line, l.target))
	}
	wantTargets := []string{"4 docs/guide.md#in-short", "4 docs/x.svg", "4 https://example.com", "10 CONTRIBUTING.md#package-map", "11 docs/y.png"}
	if !slices.Equal(targets, wantTargets) {
		t.Errorf("links %q, want %q", targets, wantTargets)
	}
	wantAnchors := []string{"title", "quick-start-the-fit-command--in-five-lines", "quick-start-the-fit-command--in-five-lines-1"}
	if !slices.Equal(anchors, wantAnchors) {
		t.Errorf("anchors %q, want %q", anchors, wantAnchors)
	}

	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"README.md", "docs/guide.md"} {
		if err := os.WriteFile(filepath.Join(root, f), []byte("# A\n## Part two\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	anchorsOf := func(rel string) ([]string, bool) {
		src, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			return nil, false
		}
		_, a := markdownLinks(string(src))
		return a, true
	}
	for _, c := range []struct{ from, target, want string }{
		{"README.md", "docs/guide.md", ""},
		{"README.md", "docs/guide.md#part-two", ""},
		{"README.md", "#a", ""},
		{"docs/guide.md", "../README.md#part-two", ""},
		{"docs/guide.md", "./", ""},
		{"README.md", "https://example.com/x", ""},
		{"README.md", "docs/cli.md", "no such file in the repository: docs/cli.md"},
		{"README.md", "docs/guide.md#part-three", "docs/guide.md has no heading with the anchor #part-three"},
		{"README.md", "#b", "README.md has no heading with the anchor #b"},
		{"docs/guide.md", "../../shared/data/README.md", "points outside the repository"},
		{"README.md", "/srv/semitopic/README.md", "an absolute path; link to files of the repository by relative path"},
		{"README.md", "file:///srv/x.md", "an absolute or machine-specific link; link to files of the repository by relative path"},
	} {
		if got := checkLink(root, c.from, c.target, anchorsOf); got != c.want {
			t.Errorf("%s → %s: %q, want %q", c.from, c.target, got, c.want)
		}
	}
}
