// Package docs holds the tests that keep the repository's documentation
// true to the code: the package map of CONTRIBUTING.md against the
// module's packages and their imports (every package listed once, none
// listed that does not exist, no package importing one from a higher
// layer), and the relative links of the Markdown pages (every file and
// heading a link names exists, and no link is an absolute path).
//
// It has no code of its own: run its tests with
//
//	go test ./internal/docs/
package docs
