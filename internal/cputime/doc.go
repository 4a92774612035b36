// Package cputime reads the processor time the process has used. Unlike
// the time on the clock, the other processes of a loaded machine do not
// lengthen it, so that two passes timed by it in turns compare fairly
// where the machine is shared.
package cputime
