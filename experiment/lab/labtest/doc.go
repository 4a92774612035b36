// Package labtest is what the reproductions' tests share: a report written
// by lab.Report read back into its sections and tables, raw results
// decoded, and small synthetic corpora that run a reproduction's pipeline
// in seconds without the shared data.
package labtest
