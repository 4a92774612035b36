package model

import "slices"

// svmDuals are the dual variables of a one-vs-rest linear SVM that the
// automatic configuration fitted on the labeled documents of a fold, kept
// to warm-start the later SVMs on the same documents or some of them
// (classify.LinearSVC.Start). The terms-only SVM's start the terms+topics
// readout of every candidate on that fold, the terms-only SVM on the
// learning curve's folds, and the readouts of a candidate that
// kept none; a candidate's own terms+topics readout's start those of the
// learning curve and of the final fit when it is chosen
// (Candidate.duals). The SVM's optimum does not depend on the start, only
// its iterations do.
type svmDuals struct {
	// train lists the fold's training documents, in order.
	train []int
	// row maps a (document, label) pair to its training row; a document
	// with several labels has a row for each.
	row map[[2]int]int
	// problem maps a label (an index of Supervision.labelIndex) to its
	// binary problem; for two labels both map to the single problem.
	problem map[int]int
	// nz[k] lists, in increasing order, the rows whose dual in binary
	// problem k is not zero, and alpha[k] those duals: most are zero (a
	// row far from a label's margin; on Reuters 6–14% are not), and the
	// search keeps several sets of them until the final fit.
	nz    [][]int32
	alpha [][]float64
	// rows counts the fold's training rows.
	rows int
}

// newSVMDuals returns the duals alpha of a one-vs-rest SVM fitted on the
// documents train, whose row r is document doc[r] with label label[r] and
// whose binary problem q is that of label labels[q] (indices of
// Supervision.labelIndex; for two labels alpha holds label 1's problem
// alone, which both labels map to).
func newSVMDuals(train, doc, label, labels []int, alpha [][]float64) *svmDuals {
	d := &svmDuals{train: train, row: make(map[[2]int]int, len(doc)), problem: make(map[int]int, len(labels)), rows: len(doc)}
	d.nz, d.alpha = make([][]int32, len(alpha)), make([][]float64, len(alpha))
	for k, a := range alpha {
		for r, v := range a {
			if v != 0 {
				d.nz[k] = append(d.nz[k], int32(r))
				d.alpha[k] = append(d.alpha[k], v)
			}
		}
	}
	for r, i := range doc {
		d.row[[2]int{i, label[r]}] = r
	}
	for q, l := range labels {
		d.problem[l] = min(q, len(alpha)-1)
	}
	return d
}

// cvSVMTol is the stopping tolerance of the cross-validation's linear
// SVMs: the terms-only SVM on the folds and on the learning curve's, and
// the terms+topics readouts the folds score. It is LIBLINEAR's default
// for its dual solvers (eps = 0.1 in its train.c), where scikit-learn's
// LinearSVC, and classify's default, stop at 1e-4: the folds' SVMs only
// score held-out documents, whose predictions the last digits of the
// dual hardly move (on Reuters' training set the search's SVM and chosen
// candidate came out within 0.05 points of 1e-4's, their SD being 0.3),
// and they are most of the search's time. The readout of the model kept
// is solved to classify's default.
const cvSVMTol = 0.1

// readoutSVM says how the terms+topics readout's SVM is solved: from
// which duals it starts (nil: zero) and to which tolerance (0: classify's
// default). With keep, trainReadout leaves the fitted duals in alpha, and
// each training row's document (an index of trainReadout's labels) and
// label in doc and label.
type readoutSVM struct {
	warm *readoutWarm
	tol  float64

	keep       bool
	alpha      [][]float64
	doc, label []int
}

// keeps reports whether trainReadout should keep the SVM's duals in h.
func (h *readoutSVM) keeps() bool { return h != nil && h.keep }

// start returns h's warm start, nil for none or a nil h.
func (h *readoutSVM) start() *readoutWarm {
	if h == nil {
		return nil
	}
	return h.warm
}

// readoutWarm gives an SVM that learns from some of the search's labeled
// documents its starting dual variables, from the duals of folds fitted
// on the same documents or some of them (warmFrom): at(i, l, k) is that of
// its i-th training document's row of label l in the binary problem of
// label k, in the SVM's own indices of documents and labels.
type readoutWarm struct {
	// use are the folds whose duals are averaged, docs maps the SVM's
	// documents to the search's and label its labels.
	use   []*svmDuals
	docs  []int
	label func(int) int
}

// warmFrom returns the start of an SVM that learns from the documents
// docs, with doc and label mapping the SVM's indices of a document and a
// label to the search's: the duals of the fold fitted on the same
// documents when there is one (the same rows: the start the terms alone
// give the terms and topics), else the mean of every fold's that has the
// row. It returns nil without folds.
func warmFrom(folds []*svmDuals, docs []int, label func(int) int) *readoutWarm {
	if len(folds) == 0 {
		return nil
	}
	use := folds
	for _, f := range folds {
		if slices.Equal(f.train, docs) {
			use = []*svmDuals{f}
			break
		}
	}
	return &readoutWarm{use: use, docs: docs, label: label}
}

// duals returns the start of a one-vs-rest SVM over numLabels labels (the
// layout of classify.LinearSVC.Start: one binary problem per label, or
// label 1's alone for two) whose training row r is document doc[r] of
// label y[r], in the indices w takes: the mean, over the folds that have the
// row and problem, of their duals (0 when none has), computed fold by fold — each row found in a
// fold once, each problem's duals spread over the fold's rows once —
// rather than by a look-up per row and problem.
func (w *readoutWarm) duals(doc, y []int, numLabels int) [][]float64 {
	start := make([][]float64, numLabels)
	if numLabels == 2 {
		start = start[:1]
	}
	// in[f][r] is row r's row in fold f, −1 where the fold lacks it;
	// dense[f] holds one problem's duals over fold f's rows at a time.
	in := make([][]int32, len(w.use))
	dense := make([][]float64, len(w.use))
	for f, d := range w.use {
		in[f] = make([]int32, len(doc))
		for r, i := range doc {
			in[f][r] = -1
			if q, ok := d.row[[2]int{w.docs[i], w.label(y[r])}]; ok {
				in[f][r] = int32(q)
			}
		}
		dense[f] = make([]float64, d.rows)
	}
	sum, n := make([]float64, len(doc)), make([]int, len(doc))
	for k := range start {
		pos := k
		if numLabels == 2 {
			pos = 1
		}
		clear(sum)
		clear(n)
		for f, d := range w.use {
			p, ok := d.problem[w.label(pos)]
			if !ok {
				continue
			}
			for j, q := range d.nz[p] {
				dense[f][q] = d.alpha[p][j]
			}
			for r, q := range in[f] {
				if q >= 0 {
					sum[r] += dense[f][q]
					n[r]++
				}
			}
			for _, q := range d.nz[p] {
				dense[f][q] = 0
			}
		}
		a := make([]float64, len(doc))
		for r := range a {
			if n[r] > 0 {
				a[r] = sum[r] / float64(n[r])
			}
		}
		start[k] = a
	}
	return start
}
