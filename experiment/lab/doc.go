// Package lab is what every reproduction under experiment shares: the
// environment it runs in (Env), its registration (Experiment), the
// Markdown report it writes with its charts and raw results (Report), and
// means with standard deviations over repetitions.
package lab
