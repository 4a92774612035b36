//go:build amd64 && !purego

#include "textflag.h"

// The sparse axpy: w[idx[q]] += a·vals[q], four entries a round, each
// product rounded (MULSD) before the addition (ADDSD), the entries in
// order (a column repeated in a row is added twice, in turn). Register
// use: DI w, DX idx, SI vals, CX n, X0 a, R10 q, R11 n rounded down to a
// multiple of 4, AX the column.

// func sparseAxpy(w *float64, idx *int32, vals *float64, n int, a float64)
TEXT ·sparseAxpy(SB), NOSPLIT, $0-40
	MOVQ  w+0(FP), DI
	MOVQ  idx+8(FP), DX
	MOVQ  vals+16(FP), SI
	MOVQ  n+24(FP), CX
	MOVSD a+32(FP), X0
	XORQ  R10, R10
	MOVQ  CX, R11
	ANDQ  $-4, R11
	JZ    sparseAxpyTail

sparseAxpyLoop:
	MOVLQSX (DX)(R10*4), AX
	MOVSD   (SI)(R10*8), X1
	MULSD   X0, X1
	ADDSD   (DI)(AX*8), X1
	MOVSD   X1, (DI)(AX*8)
	MOVLQSX 4(DX)(R10*4), AX
	MOVSD   8(SI)(R10*8), X2
	MULSD   X0, X2
	ADDSD   (DI)(AX*8), X2
	MOVSD   X2, (DI)(AX*8)
	MOVLQSX 8(DX)(R10*4), AX
	MOVSD   16(SI)(R10*8), X3
	MULSD   X0, X3
	ADDSD   (DI)(AX*8), X3
	MOVSD   X3, (DI)(AX*8)
	MOVLQSX 12(DX)(R10*4), AX
	MOVSD   24(SI)(R10*8), X4
	MULSD   X0, X4
	ADDSD   (DI)(AX*8), X4
	MOVSD   X4, (DI)(AX*8)
	ADDQ    $4, R10
	CMPQ    R10, R11
	JLT     sparseAxpyLoop

sparseAxpyTail:
	CMPQ    R10, CX
	JGE     sparseAxpyDone
	MOVLQSX (DX)(R10*4), AX
	MOVSD   (SI)(R10*8), X1
	MULSD   X0, X1
	ADDSD   (DI)(AX*8), X1
	MOVSD   X1, (DI)(AX*8)
	INCQ    R10
	JMP     sparseAxpyTail

sparseAxpyDone:
	RET
