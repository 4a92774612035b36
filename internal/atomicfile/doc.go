// Package atomicfile writes files so that a failure never damages what was
// there: the content goes to a temporary file in the target's folder, which
// is synced and then renamed over the target. Until the rename the old file
// is untouched; after an error no partial file is left behind. A write
// that is killed leaves its temporary, ".NAME.tmp-PID-RANDOM": the next
// write of NAME removes it once its process is gone (see Leftovers).
package atomicfile
