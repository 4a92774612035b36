package docs

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// moduleRoot returns the folder of the main module's go.mod (found by
// walking up from the test's working directory) and the module path.
func moduleRoot(t *testing.T) (root, module string) {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil {
			for _, line := range strings.Split(string(data), "\n") {
				if f := strings.Fields(line); len(f) == 2 && f[0] == "module" {
					return dir, f[1]
				}
			}
			t.Fatalf("%s: no module line", filepath.Join(dir, "go.mod"))
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's folder")
		}
		dir = parent
	}
}

// skipDir reports whether a folder under the module root holds no package
// of the module: hidden and underscore folders, testdata, and nested
// modules (a folder with its own go.mod).
func skipDir(root, path string, d fs.DirEntry) bool {
	if path == root {
		return false
	}
	name := d.Name()
	if strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" {
		return true
	}
	_, err := os.Stat(filepath.Join(path, "go.mod"))
	return err == nil
}

// modulePackages returns the module's packages, as paths relative to the
// module root ("cmd/semitopic"), each with the packages of the module that
// its non-test files import (relative paths too). Imports are read from
// every non-test file whatever its build constraints, so that a package
// imported on one platform only counts.
func modulePackages(root, module string) (map[string][]string, error) {
	pkgs := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if skipDir(root, path, d) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if rel == "." {
			rel = ""
		}
		if _, ok := pkgs[rel]; !ok {
			pkgs[rel] = nil
		}
		if strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			return err
		}
		if ignored(f.Comments) {
			return nil
		}
		for _, imp := range f.Imports {
			p, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				return fmt.Errorf("%s: import %s: %w", path, imp.Path.Value, err)
			}
			if q, ok := strings.CutPrefix(p, module+"/"); ok && !slices.Contains(pkgs[rel], q) {
				pkgs[rel] = append(pkgs[rel], q)
			}
		}
		return nil
	})
	return pkgs, err
}

// ignored reports whether a file's build constraint is "ignore": a file
// that is never built (a generator run by go run).
func ignored(groups []*ast.CommentGroup) bool {
	for _, g := range groups {
		for _, c := range g.List {
			if strings.TrimSpace(c.Text) == "//go:build ignore" {
				return true
			}
		}
	}
	return false
}

// packageMap is CONTRIBUTING.md's package map: each package's layer, and
// the order in which the map lists them.
type packageMap struct {
	layer map[string]int
	order []string
}

var (
	layerHeading = regexp.MustCompile(`^### Layer (\d+)\b`)
	mapRow       = regexp.MustCompile("^\\|\\s*`([^`]+)`\\s*\\|(.*)\\|\\s*$")
)

// parsePackageMap reads the "## Package map" section of a Markdown file:
// "### Layer N: …" headings, each followed by a table whose rows name one
// package in back quotes and say what it is. Errors name the line.
func parsePackageMap(name, src string) (packageMap, error) {
	m := packageMap{layer: map[string]int{}}
	in, layer := false, -1
	sc := bufio.NewScanner(strings.NewReader(src))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case line == "## Package map":
			in = true
			continue
		case !in:
			continue
		case strings.HasPrefix(line, "## "):
			in = false
			continue
		}
		if g := layerHeading.FindStringSubmatch(line); g != nil {
			layer, _ = strconv.Atoi(g[1])
			continue
		}
		if strings.HasPrefix(line, "#") {
			return m, fmt.Errorf("%s:%d: heading %q in the package map is not a layer (### Layer N: …)", name, n, line)
		}
		g := mapRow.FindStringSubmatch(line)
		if g == nil {
			continue
		}
		pkg, what := g[1], strings.TrimSpace(g[2])
		if layer < 0 {
			return m, fmt.Errorf("%s:%d: package %s listed before any layer heading", name, n, pkg)
		}
		if strings.Contains(what, "|") {
			return m, fmt.Errorf("%s:%d: package %s: one package per row, in back quotes, then what it is", name, n, pkg)
		}
		if what == "" {
			return m, fmt.Errorf("%s:%d: package %s: no description", name, n, pkg)
		}
		if l, dup := m.layer[pkg]; dup {
			return m, fmt.Errorf("%s:%d: package %s listed twice (already in layer %d)", name, n, pkg, l)
		}
		m.layer[pkg] = layer
		m.order = append(m.order, pkg)
	}
	if err := sc.Err(); err != nil {
		return m, err
	}
	if len(m.order) == 0 {
		return m, fmt.Errorf("%s: no package map (a \"## Package map\" section of \"### Layer N\" tables)", name)
	}
	return m, nil
}

// checkPackageMap compares a package map with the module's packages and
// their imports, returning one line per problem.
func checkPackageMap(m packageMap, pkgs map[string][]string) []string {
	var problems []string
	var names []string
	for p := range pkgs {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, p := range names {
		if _, ok := m.layer[p]; !ok {
			shown := p
			if shown == "" {
				shown = "(the module root)"
			}
			problems = append(problems, fmt.Sprintf("package %s is not in the package map", shown))
		}
	}
	for _, p := range m.order {
		if _, ok := pkgs[p]; !ok {
			problems = append(problems, fmt.Sprintf("the package map lists %s, which is not a package of the module", p))
		}
	}
	for _, p := range names {
		lp, ok := m.layer[p]
		if !ok {
			continue
		}
		imports := slices.Clone(pkgs[p])
		sort.Strings(imports)
		for _, q := range imports {
			if lq, ok := m.layer[q]; ok && lq > lp {
				problems = append(problems, fmt.Sprintf("%s (layer %d) imports %s (layer %d): a lower layer may not import a higher one", p, lp, q, lq))
			}
		}
	}
	return problems
}

// TestPackageMap checks CONTRIBUTING.md's package map against the module:
// every package listed once, none listed that does not exist, and no
// package's code importing a package of a higher layer.
func TestPackageMap(t *testing.T) {
	root, module := moduleRoot(t)
	path := filepath.Join(root, "CONTRIBUTING.md")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := parsePackageMap("CONTRIBUTING.md", string(src))
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := modulePackages(root, module)
	if err != nil {
		t.Fatal(err)
	}
	// The walk must see what go list sees; these are never absent.
	for _, p := range []string{"cmd/semitopic", "model", "sparse", "internal/rng", "text/wordnet"} {
		if _, ok := pkgs[p]; !ok {
			t.Fatalf("the walk of %s found no package %s: it is broken", root, p)
		}
	}
	for _, p := range checkPackageMap(m, pkgs) {
		t.Error("CONTRIBUTING.md: " + p)
	}
}

// TestPackageMapCatches feeds the checks a small map and module with one of
// each fault, so that TestPackageMap cannot pass by checking nothing.
func TestPackageMapCatches(t *testing.T) {
	src := strings.Join([]string{
		"# Contributing",
		"## Package map",
		"### Layer 0: foundations",
		"| package | what it is |",
		"| --- | --- |",
		"| `sparse` | matrices |",
		"| `gone` | a package that was removed |",
		"### Layer 1: estimators",
		"| package | what it is |",
		"| --- | --- |",
		"| `nmf` | the engine |",
		"| `model` | the facade |",
		"## After the map",
		"| `outside` | not in the map |",
	}, "\n")
	m, err := parsePackageMap("test.md", src)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := m.order, []string{"sparse", "gone", "nmf", "model"}; !slices.Equal(got, want) {
		t.Fatalf("packages %v, want %v", got, want)
	}
	pkgs := map[string][]string{
		"sparse": {"nmf"}, // a lower layer importing a higher one
		"nmf":    {"sparse"},
		"model":  {"nmf", "sparse"},
		"server": {"model"}, // not listed
	}
	got := checkPackageMap(m, pkgs)
	want := []string{
		"package server is not in the package map",
		"the package map lists gone, which is not a package of the module",
		"sparse (layer 0) imports nmf (layer 1): a lower layer may not import a higher one",
	}
	if !slices.Equal(got, want) {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	for _, bad := range []struct{ src, want string }{
		{"## Package map\n| `a` | before a layer |", "listed before any layer heading"},
		{"## Package map\n### Layer 0: x\n| `a` | one |\n| `a` | two |", "listed twice"},
		{"## Package map\n### Layer 0: x\n| `a` |  |", "no description"},
		{"## Package map\n### Layer 0: x\n| `a` | `b` | two packages |", "one package per row"},
		{"## Package map\n### Foundations\n| `a` | one |", "is not a layer"},
		{"# Nothing here", "no package map"},
	} {
		if _, err := parsePackageMap("bad.md", bad.src); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: error %v, want one saying %q", bad.src, err, bad.want)
		}
	}
}
