// Package e2e holds the tests that use the project's pages as a person
// does, in a real headless Chromium driven over the DevTools protocol:
// the workbench's main flows (open, add a seed word and see what the
// refit changed, undo and redo, label documents, export, reload and
// resume), its keyboard access and its layout at 1280×800. They fail on
// any console message, uncaught exception or failed request, and write a
// screenshot of each step.
//
// The tests skip unless SEMITOPIC_BROWSER=1 and a Chromium is installed
// (Debian's chromium package; SEMITOPIC_CHROMIUM names another binary),
// so that go test ./... needs no browser; e2e/browser.sh installs
// Chromium and runs them, failing if they skip. The screenshots go to the
// folder SEMITOPIC_BROWSER_OUT names (default: the test's temporary
// folder, removed after the test).
package e2e
