package corpus

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file holds a small parser for the SGML subset of Reuters-21578:
// start tags with attributes, end tags, character data with entity
// references, and <!...> declarations and comments. Every element must be
// closed explicitly; there is no tag omission or DTD processing.

// sgmlElem is a parsed element.
type sgmlElem struct {
	name  string // upper case
	attrs []sgmlAttr
	line  int // line of the start tag
	kids  []sgmlNode
}

// sgmlAttr is one attribute of a start tag, with its value decoded.
type sgmlAttr struct {
	name  string // upper case
	value string
}

// sgmlNode is a child of an element: an element or raw character data
// (entity references not yet decoded).
type sgmlNode struct {
	elem *sgmlElem
	text string
	line int // line where the node starts
}

// attr returns the value of the named attribute (upper case) and whether it
// is present.
func (e *sgmlElem) attr(name string) (string, bool) {
	for _, a := range e.attrs {
		if a.name == name {
			return a.value, true
		}
	}
	return "", false
}

// rawText concatenates the character data of e and all its descendants.
func (e *sgmlElem) rawText() string {
	var sb strings.Builder
	var walk func(*sgmlElem)
	walk = func(e *sgmlElem) {
		for _, k := range e.kids {
			if k.elem != nil {
				walk(k.elem)
			} else {
				sb.WriteString(k.text)
			}
		}
	}
	walk(e)
	return sb.String()
}

// sgmlParser parses one SGML file held in memory.
type sgmlParser struct {
	name string // file name for errors
	src  string
	nl   []int // offsets of the '\n' bytes of src
}

func newSGMLParser(name, src string) *sgmlParser {
	p := &sgmlParser{name: name, src: src}
	for i := 0; i < len(src); i++ {
		if src[i] == '\n' {
			p.nl = append(p.nl, i)
		}
	}
	return p
}

// lineAt returns the 1-based line number of byte offset off.
func (p *sgmlParser) lineAt(off int) int { return sort.SearchInts(p.nl, off) + 1 }

// errorf returns an error "file:line: message" for the byte offset off.
func (p *sgmlParser) errorf(off int, format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", p.name, p.lineAt(off), fmt.Sprintf(format, args...))
}

func isSGMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

func isNameStart(c byte) bool { return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' }

func isNameChar(c byte) bool {
	return isNameStart(c) || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == ':'
}

// upper returns s with ASCII letters in upper case.
func upper(s string) string {
	for i := 0; i < len(s); i++ {
		if 'a' <= s[i] && s[i] <= 'z' {
			return strings.ToUpper(s)
		}
	}
	return s
}

// next parses the next top-level element named want (upper case) starting
// at byte offset i, skipping white space and declarations before it. It
// returns nil at the end of the input.
func (p *sgmlParser) next(i int, want string) (*sgmlElem, int, error) {
	src := p.src
	for {
		for i < len(src) && isSGMLSpace(src[i]) {
			i++
		}
		if i == len(src) {
			return nil, i, nil
		}
		if src[i] != '<' {
			end := strings.IndexByte(src[i:], '<')
			if end < 0 {
				end = len(src) - i
			}
			return nil, i, p.errorf(i, "text %q outside a <%s> element", clip(strings.TrimSpace(src[i:i+end])), want)
		}
		if strings.HasPrefix(src[i:], "<!") {
			j, err := p.skipDecl(i)
			if err != nil {
				return nil, i, err
			}
			i = j
			continue
		}
		if i+1 < len(src) && src[i+1] == '/' {
			return nil, i, p.errorf(i, "end tag outside any element")
		}
		e, j, empty, err := p.startTag(i)
		if err != nil {
			return nil, i, err
		}
		if e.name != want {
			return nil, i, p.errorf(i, "unexpected <%s> outside a <%s> element", e.name, want)
		}
		if empty {
			return e, j, nil
		}
		j, err = p.content(e, j)
		return e, j, err
	}
}

// skipDecl skips a comment (<!-- ... -->) or declaration (<!...>) at i.
func (p *sgmlParser) skipDecl(i int) (int, error) {
	if strings.HasPrefix(p.src[i:], "<!--") {
		k := strings.Index(p.src[i+4:], "-->")
		if k < 0 {
			return 0, p.errorf(i, "unterminated comment")
		}
		return i + 4 + k + 3, nil
	}
	k := strings.IndexByte(p.src[i:], '>')
	if k < 0 {
		return 0, p.errorf(i, "unterminated declaration")
	}
	return i + k + 1, nil
}

// startTag parses the start tag at i ("<NAME attr="value" ...>"). It
// returns the element, the offset after the tag, and whether the tag was
// written as an empty element ("<NAME/>").
func (p *sgmlParser) startTag(i int) (*sgmlElem, int, bool, error) {
	src := p.src
	j := i + 1
	for j < len(src) && isNameChar(src[j]) {
		j++
	}
	e := &sgmlElem{name: upper(src[i+1 : j]), line: p.lineAt(i)}
	for {
		for j < len(src) && isSGMLSpace(src[j]) {
			j++
		}
		if j == len(src) {
			return nil, 0, false, p.errorf(i, "unterminated tag <%s", e.name)
		}
		switch {
		case src[j] == '>':
			return e, j + 1, false, nil
		case src[j] == '/' && j+1 < len(src) && src[j+1] == '>':
			return e, j + 2, true, nil
		case !isNameStart(src[j]):
			return nil, 0, false, p.errorf(j, "bad attribute syntax in <%s> at %q", e.name, src[j:min(j+10, len(src))])
		}
		k := j
		for j < len(src) && isNameChar(src[j]) {
			j++
		}
		name := upper(src[k:j])
		for j < len(src) && isSGMLSpace(src[j]) {
			j++
		}
		if j == len(src) || src[j] != '=' {
			return nil, 0, false, p.errorf(k, "attribute %s of <%s> has no value", name, e.name)
		}
		j++
		for j < len(src) && isSGMLSpace(src[j]) {
			j++
		}
		var value string
		if j < len(src) && (src[j] == '"' || src[j] == '\'') {
			q := src[j]
			end := strings.IndexByte(src[j+1:], q)
			if end < 0 {
				return nil, 0, false, p.errorf(j, "unterminated value of attribute %s in <%s>", name, e.name)
			}
			value = decodeEntities(src[j+1 : j+1+end])
			j += end + 2
		} else {
			k := j
			for j < len(src) && isNameChar(src[j]) {
				j++
			}
			if j == k {
				return nil, 0, false, p.errorf(k, "attribute %s of <%s> has no value", name, e.name)
			}
			value = src[k:j]
		}
		if _, dup := e.attr(name); dup {
			return nil, 0, false, p.errorf(k, "attribute %s repeated in <%s>", name, e.name)
		}
		e.attrs = append(e.attrs, sgmlAttr{name, value})
	}
}

// content parses the content of root from offset i up to and including its
// end tag, and returns the offset after the end tag.
func (p *sgmlParser) content(root *sgmlElem, i int) (int, error) {
	src := p.src
	stack := []*sgmlElem{root}
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		k := strings.IndexByte(src[i:], '<')
		if k < 0 {
			return 0, p.errorf(len(src), "unterminated <%s> element (opened at line %d)", top.name, top.line)
		}
		if k > 0 {
			top.kids = append(top.kids, sgmlNode{text: src[i : i+k], line: p.lineAt(i)})
			i += k
		}
		var c byte
		if i+1 < len(src) {
			c = src[i+1]
		}
		switch {
		case c == '/':
			j := i + 2
			for j < len(src) && isNameChar(src[j]) {
				j++
			}
			name := upper(src[i+2 : j])
			for j < len(src) && isSGMLSpace(src[j]) {
				j++
			}
			if j == len(src) || src[j] != '>' {
				return 0, p.errorf(i, "unterminated end tag </%s", name)
			}
			if name != top.name {
				return 0, p.errorf(i, "</%s> does not close <%s> (opened at line %d)", name, top.name, top.line)
			}
			stack = stack[:len(stack)-1]
			i = j + 1
		case c == '!':
			j, err := p.skipDecl(i)
			if err != nil {
				return 0, err
			}
			i = j
		case isNameStart(c):
			e, j, empty, err := p.startTag(i)
			if err != nil {
				return 0, err
			}
			top.kids = append(top.kids, sgmlNode{elem: e, line: e.line})
			if !empty {
				stack = append(stack, e)
			}
			i = j
		default: // a '<' that starts no tag is character data
			top.kids = append(top.kids, sgmlNode{text: "<", line: p.lineAt(i)})
			i++
		}
	}
	return i, nil
}

// decodeEntities replaces the character references of s: the named
// entities &lt; &gt; &amp; &quot; &apos; and numeric references &#N; and
// &#xH;. References to control characters (other than tab, newline and
// carriage return), to DEL (&#127;) and to C1 controls (&#128;–&#159;)
// become a space: Reuters-21578 uses &#2;, &#3;, &#5;, &#22;, &#30; and
// &#31; as transmission codes and &#127; where a character was garbled.
// Anything else that starts with '&' (an unknown entity, a reference
// without ';', an invalid code point) is kept verbatim.
func decodeEntities(s string) string {
	amp := strings.IndexByte(s, '&')
	if amp < 0 {
		return s
	}
	var sb strings.Builder
	sb.Grow(len(s))
	for amp >= 0 {
		sb.WriteString(s[:amp])
		s = s[amp:]
		r, n := entityAt(s)
		if n == 0 {
			sb.WriteByte('&')
			s = s[1:]
		} else {
			sb.WriteRune(r)
			s = s[n:]
		}
		amp = strings.IndexByte(s, '&')
	}
	sb.WriteString(s)
	return sb.String()
}

// entityAt decodes the reference at the start of s (which starts with '&'),
// returning the character and the length of the reference, or n == 0 if s
// does not start with a reference decodeEntities understands.
func entityAt(s string) (r rune, n int) {
	semi := strings.IndexByte(s, ';')
	if semi < 2 || semi > 12 {
		return 0, 0
	}
	ref := s[1:semi]
	if ref[0] == '#' {
		num := ref[1:]
		base := 10
		if len(num) > 0 && (num[0] == 'x' || num[0] == 'X') {
			num, base = num[1:], 16
		}
		if num == "" || num[0] == '+' || num[0] == '-' {
			return 0, 0
		}
		v, err := strconv.ParseUint(num, base, 32)
		if err != nil || v > utf8.MaxRune || (v >= 0xD800 && v <= 0xDFFF) {
			return 0, 0
		}
		c := rune(v)
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c >= 0x7f && c < 0xa0 {
			c = ' '
		}
		return c, semi + 1
	}
	switch ref {
	case "lt":
		return '<', semi + 1
	case "gt":
		return '>', semi + 1
	case "amp":
		return '&', semi + 1
	case "quot":
		return '"', semi + 1
	case "apos":
		return '\'', semi + 1
	}
	return 0, 0
}
