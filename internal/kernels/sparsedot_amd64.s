//go:build amd64 && !purego

#include "textflag.h"

// The sparse dot product: four partial sums in X0–X3, entry q in sum
// q mod 4, each product rounded (MULSD) before the addition (ADDSD), as
// sparseDotGeneric does. Register use: DI w, DX idx, SI vals, CX n,
// R10 q, R11 n rounded down to a multiple of 4, AX the gathered index.

// func sparseDot(w *float64, idx *int32, vals *float64, n int) float64
TEXT ·sparseDot(SB), NOSPLIT, $0-40
	MOVQ  w+0(FP), DI
	MOVQ  idx+8(FP), DX
	MOVQ  vals+16(FP), SI
	MOVQ  n+24(FP), CX
	XORPS X0, X0
	XORPS X1, X1
	XORPS X2, X2
	XORPS X3, X3
	XORQ  R10, R10
	MOVQ  CX, R11
	ANDQ  $-4, R11
	JZ    sparseDotTail

sparseDotLoop:
	MOVLQSX (DX)(R10*4), AX
	MOVSD   (DI)(AX*8), X4
	MULSD   (SI)(R10*8), X4
	ADDSD   X4, X0
	MOVLQSX 4(DX)(R10*4), AX
	MOVSD   (DI)(AX*8), X5
	MULSD   8(SI)(R10*8), X5
	ADDSD   X5, X1
	MOVLQSX 8(DX)(R10*4), AX
	MOVSD   (DI)(AX*8), X6
	MULSD   16(SI)(R10*8), X6
	ADDSD   X6, X2
	MOVLQSX 12(DX)(R10*4), AX
	MOVSD   (DI)(AX*8), X7
	MULSD   24(SI)(R10*8), X7
	ADDSD   X7, X3
	ADDQ    $4, R10
	CMPQ    R10, R11
	JLT     sparseDotLoop

sparseDotTail:
	// Up to three entries left, into s0, s1 and s2 in turn.
	CMPQ    R10, CX
	JGE     sparseDotDone
	MOVLQSX (DX)(R10*4), AX
	MOVSD   (DI)(AX*8), X4
	MULSD   (SI)(R10*8), X4
	ADDSD   X4, X0
	INCQ    R10
	CMPQ    R10, CX
	JGE     sparseDotDone
	MOVLQSX (DX)(R10*4), AX
	MOVSD   (DI)(AX*8), X5
	MULSD   (SI)(R10*8), X5
	ADDSD   X5, X1
	INCQ    R10
	CMPQ    R10, CX
	JGE     sparseDotDone
	MOVLQSX (DX)(R10*4), AX
	MOVSD   (DI)(AX*8), X6
	MULSD   (SI)(R10*8), X6
	ADDSD   X6, X2

sparseDotDone:
	ADDSD X1, X0
	ADDSD X3, X2
	ADDSD X2, X0
	MOVSD X0, ret+32(FP)
	RET

// func prefetchSparse(idx *int32, vals *float64, n int)
//
// Every 64-byte line that holds part of the n int32 at idx or the n
// float64 at vals: one prefetch per 64 bytes from the start, and one of
// the last byte, whose line the stride may have stepped over.
TEXT ·prefetchSparse(SB), NOSPLIT, $0-24
	MOVQ idx+0(FP), DX
	MOVQ vals+8(FP), SI
	MOVQ n+16(FP), CX
	LEAQ (DX)(CX*4), R8
	LEAQ (SI)(CX*8), R9

prefetchSparseIdx:
	PREFETCHT0 (DX)
	ADDQ       $64, DX
	CMPQ       DX, R8
	JLT        prefetchSparseIdx
	PREFETCHT0 -1(R8)

prefetchSparseVals:
	PREFETCHT0 (SI)
	ADDQ       $64, SI
	CMPQ       SI, R9
	JLT        prefetchSparseVals
	PREFETCHT0 -1(R9)
	RET
