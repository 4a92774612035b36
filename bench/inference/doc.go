// Command inference measures what one-document inference costs against a
// batch, for every model kind that predicts labels: it fits each kind on
// the Reuters training documents (documents with one of the 10 most
// frequent categories, each kind's default pipeline), then predicts -n test
// documents one call at a time and in one call, and prints the time per
// document both ways and their ratio. It needs the shared corpora.
//
//	go run ./bench/inference [-n 400] [-kinds tsnmf,ssnmf,theme,corex]
package main
