package languages

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"html"
	"io"
	"os"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"
)

// component is one application of a DEP-11 file.
type component struct {
	ID          string            `yaml:"ID"`
	Type        string            `yaml:"Type"`
	Summary     map[string]string `yaml:"Summary"`
	Description map[string]string `yaml:"Description"`
	Categories  []string          `yaml:"Categories"`
}

// mainCategories maps freedesktop.org's main categories to the classes
// of the experiment (Audio and Video join AudioVideo, Settings System).
var mainCategories = map[string]string{
	"AudioVideo": "AudioVideo", "Audio": "AudioVideo", "Video": "AudioVideo", "Development": "Development",
	"Education": "Education", "Game": "Game", "Graphics": "Graphics", "Network": "Network", "Office": "Office",
	"Science": "Science", "Settings": "System", "System": "System", "Utility": "Utility",
}

// class returns the component's class: its first main category, or "".
func (c *component) class() string {
	for _, cat := range c.Categories {
		if m, ok := mainCategories[cat]; ok {
			return m
		}
	}
	return ""
}

// readDEP11 reads the components of a DEP-11 file, gzip-compressed or
// not; errors name the file and the document.
func readDEP11(path string) ([]component, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r io.Reader = bytes.NewReader(b)
	if len(b) > 2 && b[0] == 0x1f && b[1] == 0x8b {
		zr, err := gzip.NewReader(r)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		r = zr
	}
	return parseDEP11(path, r)
}

// parseDEP11 reads the YAML documents of a DEP-11 stream; the first is
// its header.
func parseDEP11(name string, r io.Reader) ([]component, error) {
	dec := yaml.NewDecoder(r)
	var out []component
	for i := 1; ; i++ {
		var c component
		err := dec.Decode(&c)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: YAML document %d: %w", name, i, err)
		}
		if c.ID != "" {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no component", name)
	}
	return out, nil
}

var tags = regexp.MustCompile(`<[^>]*>`)

// plain returns the text of an AppStream description (HTML paragraphs and
// lists), its white space collapsed.
func plain(s string) string {
	return strings.Join(strings.Fields(html.UnescapeString(tags.ReplaceAllString(s, " "))), " ")
}

// localeKeys are the AppStream locale keys of a language code.
func localeKeys(code string) []string {
	switch code {
	case "en":
		return []string{"C"}
	case "zh":
		return []string{"zh_CN", "zh-CN"}
	}
	return []string{code}
}

// text returns the component's summary and description in a language, and
// whether its description is translated there (not missing, not a copy of
// the original).
func (c *component) text(code string) (string, bool) {
	for _, k := range localeKeys(code) {
		d, ok := c.Description[k]
		if !ok || d == "" || (k != "C" && d == c.Description["C"]) {
			continue
		}
		s := c.Summary[k]
		if s == "" || (k != "C" && s == c.Summary["C"]) {
			s = ""
		}
		return strings.TrimSpace(s + "\n" + plain(d)), true
	}
	return "", false
}
