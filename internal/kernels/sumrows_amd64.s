//go:build amd64 && !purego

#include "textflag.h"

// The row-sum kernels: sumRowsW adds, for the W columns at dst and src,
// the rows src[idx[p]·sb/8 ...] for p < n to dst (dst[c] += Σ_p
// src[idx[p]·sb/8 + c]), in order of p, with one VADDPD per four columns
// and entry: the sums of GatherSum with every value 1 (a product by 1 is
// exact, so a fused multiply-add by 1 rounds as the addition does), without
// the broadcast and the multiplications, which frees a register for a
// thirteenth accumulator. Register use: DI dst, DX idx, CX n, BX src, R8
// row stride in bytes, R10 p, R11 address of the gathered row; the
// accumulators from Y0. The 52- and 48-wide kernels prefetch the rows
// they will gather PREFETCH_DIST entries ahead.

// PREFETCH_DIST: rows gathered this many entries ahead are prefetched.
#define PREFETCH_DIST 8

// func sumRows52(dst *float64, idx *int32, n int, src *float64, sb int)
TEXT ·sumRows52(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ idx+8(FP), DX
	MOVQ n+16(FP), CX
	MOVQ src+24(FP), BX
	MOVQ sb+32(FP), R8
	VMOVUPD 0(DI), Y0
	VMOVUPD 32(DI), Y1
	VMOVUPD 64(DI), Y2
	VMOVUPD 96(DI), Y3
	VMOVUPD 128(DI), Y4
	VMOVUPD 160(DI), Y5
	VMOVUPD 192(DI), Y6
	VMOVUPD 224(DI), Y7
	VMOVUPD 256(DI), Y8
	VMOVUPD 288(DI), Y9
	VMOVUPD 320(DI), Y10
	VMOVUPD 352(DI), Y11
	VMOVUPD 384(DI), Y12
	XORQ  R10, R10
	TESTQ CX, CX
	JZ    s52done
	MOVQ  CX, R13
	SUBQ  $PREFETCH_DIST, R13 // last p that prefetches

s52loop:
	CMPQ    R10, R13
	JGE     s52nopf
	MOVLQSX PREFETCH_DIST*4(DX)(R10*4), R12
	IMULQ   R8, R12
	ADDQ    BX, R12
	PREFETCHT0 0(R12)
	PREFETCHT0 64(R12)
	PREFETCHT0 128(R12)
	PREFETCHT0 192(R12)
	PREFETCHT0 256(R12)
	PREFETCHT0 320(R12)
	PREFETCHT0 384(R12)

s52nopf:
	MOVLQSX (DX)(R10*4), R11
	IMULQ   R8, R11
	ADDQ    BX, R11
	VADDPD  0(R11), Y0, Y0
	VADDPD  32(R11), Y1, Y1
	VADDPD  64(R11), Y2, Y2
	VADDPD  96(R11), Y3, Y3
	VADDPD  128(R11), Y4, Y4
	VADDPD  160(R11), Y5, Y5
	VADDPD  192(R11), Y6, Y6
	VADDPD  224(R11), Y7, Y7
	VADDPD  256(R11), Y8, Y8
	VADDPD  288(R11), Y9, Y9
	VADDPD  320(R11), Y10, Y10
	VADDPD  352(R11), Y11, Y11
	VADDPD  384(R11), Y12, Y12
	INCQ    R10
	CMPQ    R10, CX
	JLT     s52loop

s52done:
	VMOVUPD Y0, 0(DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	VMOVUPD Y4, 128(DI)
	VMOVUPD Y5, 160(DI)
	VMOVUPD Y6, 192(DI)
	VMOVUPD Y7, 224(DI)
	VMOVUPD Y8, 256(DI)
	VMOVUPD Y9, 288(DI)
	VMOVUPD Y10, 320(DI)
	VMOVUPD Y11, 352(DI)
	VMOVUPD Y12, 384(DI)
	VZEROUPPER
	RET

// func sumRows48(dst *float64, idx *int32, n int, src *float64, sb int)
TEXT ·sumRows48(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ idx+8(FP), DX
	MOVQ n+16(FP), CX
	MOVQ src+24(FP), BX
	MOVQ sb+32(FP), R8
	VMOVUPD 0(DI), Y0
	VMOVUPD 32(DI), Y1
	VMOVUPD 64(DI), Y2
	VMOVUPD 96(DI), Y3
	VMOVUPD 128(DI), Y4
	VMOVUPD 160(DI), Y5
	VMOVUPD 192(DI), Y6
	VMOVUPD 224(DI), Y7
	VMOVUPD 256(DI), Y8
	VMOVUPD 288(DI), Y9
	VMOVUPD 320(DI), Y10
	VMOVUPD 352(DI), Y11
	XORQ  R10, R10
	TESTQ CX, CX
	JZ    s48done
	MOVQ  CX, R13
	SUBQ  $PREFETCH_DIST, R13 // last p that prefetches

s48loop:
	CMPQ    R10, R13
	JGE     s48nopf
	MOVLQSX PREFETCH_DIST*4(DX)(R10*4), R12
	IMULQ   R8, R12
	ADDQ    BX, R12
	PREFETCHT0 0(R12)
	PREFETCHT0 64(R12)
	PREFETCHT0 128(R12)
	PREFETCHT0 192(R12)
	PREFETCHT0 256(R12)
	PREFETCHT0 320(R12)

s48nopf:
	MOVLQSX (DX)(R10*4), R11
	IMULQ   R8, R11
	ADDQ    BX, R11
	VADDPD  0(R11), Y0, Y0
	VADDPD  32(R11), Y1, Y1
	VADDPD  64(R11), Y2, Y2
	VADDPD  96(R11), Y3, Y3
	VADDPD  128(R11), Y4, Y4
	VADDPD  160(R11), Y5, Y5
	VADDPD  192(R11), Y6, Y6
	VADDPD  224(R11), Y7, Y7
	VADDPD  256(R11), Y8, Y8
	VADDPD  288(R11), Y9, Y9
	VADDPD  320(R11), Y10, Y10
	VADDPD  352(R11), Y11, Y11
	INCQ    R10
	CMPQ    R10, CX
	JLT     s48loop

s48done:
	VMOVUPD Y0, 0(DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	VMOVUPD Y4, 128(DI)
	VMOVUPD Y5, 160(DI)
	VMOVUPD Y6, 192(DI)
	VMOVUPD Y7, 224(DI)
	VMOVUPD Y8, 256(DI)
	VMOVUPD Y9, 288(DI)
	VMOVUPD Y10, 320(DI)
	VMOVUPD Y11, 352(DI)
	VZEROUPPER
	RET

// func sumRows16(dst *float64, idx *int32, n int, src *float64, sb int)
TEXT ·sumRows16(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ idx+8(FP), DX
	MOVQ n+16(FP), CX
	MOVQ src+24(FP), BX
	MOVQ sb+32(FP), R8
	VMOVUPD 0(DI), Y0
	VMOVUPD 32(DI), Y1
	VMOVUPD 64(DI), Y2
	VMOVUPD 96(DI), Y3
	XORQ  R10, R10
	TESTQ CX, CX
	JZ    s16done

s16loop:
	MOVLQSX (DX)(R10*4), R11
	IMULQ   R8, R11
	ADDQ    BX, R11
	VADDPD  0(R11), Y0, Y0
	VADDPD  32(R11), Y1, Y1
	VADDPD  64(R11), Y2, Y2
	VADDPD  96(R11), Y3, Y3
	INCQ    R10
	CMPQ    R10, CX
	JLT     s16loop

s16done:
	VMOVUPD Y0, 0(DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	VZEROUPPER
	RET

// func sumRows4(dst *float64, idx *int32, n int, src *float64, sb int)
TEXT ·sumRows4(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ idx+8(FP), DX
	MOVQ n+16(FP), CX
	MOVQ src+24(FP), BX
	MOVQ sb+32(FP), R8
	VMOVUPD 0(DI), Y0
	XORQ  R10, R10
	TESTQ CX, CX
	JZ    s4done

s4loop:
	MOVLQSX (DX)(R10*4), R11
	IMULQ   R8, R11
	ADDQ    BX, R11
	VADDPD  0(R11), Y0, Y0
	INCQ    R10
	CMPQ    R10, CX
	JLT     s4loop

s4done:
	VMOVUPD Y0, 0(DI)
	VZEROUPPER
	RET
