package docs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The README's Go quick start is the body of model's Example_quickStart,
// which go test runs and checks the output of: the two stay equal.
func TestReadmeGoQuickStart(t *testing.T) {
	root, _ := moduleRoot(t)
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	ex, err := os.ReadFile(filepath.Join(root, "model", "example_quickstart_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	const open = "func Example_quickStart() {\n"
	src := string(ex)
	i, j := strings.Index(src, open), strings.Index(src, "\t// Output:")
	if i < 0 || j < i {
		t.Fatal("model/example_quickstart_test.go: no Example_quickStart with an Output comment")
	}
	var body []string
	for _, l := range strings.Split(strings.TrimRight(src[i+len(open):j], "\n"), "\n") {
		body = append(body, strings.TrimPrefix(l, "\t"))
	}
	want := "```go\n" + strings.Join(body, "\n") + "\n```"
	if !strings.Contains(string(readme), want) {
		t.Errorf("README.md's Go quick start differs from the body of model's Example_quickStart; copy it:\n%s", want)
	}
}
