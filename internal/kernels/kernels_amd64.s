//go:build amd64 && !purego

#include "textflag.h"

// Rows gathered this many entries ahead are prefetched.
#define PREFETCH_DIST 8

// func cpuidex(leaf, sub uint32) (a, b, c, d uint32)
TEXT ·cpuidex(SB), NOSPLIT, $0-24
	MOVL leaf+0(FP), AX
	MOVL sub+4(FP), CX
	CPUID
	MOVL AX, a+8(FP)
	MOVL BX, b+12(FP)
	MOVL CX, c+16(FP)
	MOVL DX, d+20(FP)
	RET

// func xgetbv0() (a, d uint32)
TEXT ·xgetbv0(SB), NOSPLIT, $0-8
	MOVL $0, CX
	XGETBV
	MOVL AX, a+0(FP)
	MOVL DX, d+4(FP)
	RET

// Register use in the gather kernels:
//	DI dst, SI vals, DX idx, CX n, BX src, R8 row stride in bytes,
//	R10 p, R11 address of the gathered row, Y8 broadcast vals[p],
//	Y0-Y7 accumulators.

// func gatherSum48(dst, vals *float64, idx *int32, n int, src *float64, sb, add int)
// As gatherSum32 with twelve accumulators (Y0-Y11, broadcast in Y12), so
// that rows of up to 96 columns take two passes over the entries. It
// prefetches the row gathered prefetchDist entries ahead.
TEXT ·gatherSum48(SB), NOSPLIT, $0-56
	MOVQ dst+0(FP), DI
	MOVQ vals+8(FP), SI
	MOVQ idx+16(FP), DX
	MOVQ n+24(FP), CX
	MOVQ src+32(FP), BX
	MOVQ sb+40(FP), R8
	MOVQ add+48(FP), R9
	TESTQ R9, R9
	JZ   g48zero
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
	JMP  g48start

g48zero:
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	VXORPD Y8, Y8, Y8
	VXORPD Y9, Y9, Y9
	VXORPD Y10, Y10, Y10
	VXORPD Y11, Y11, Y11

g48start:
	XORQ  R10, R10
	TESTQ CX, CX
	JZ    g48done
	MOVQ  CX, R13
	SUBQ  $PREFETCH_DIST, R13 // last p that prefetches

g48loop:
	CMPQ    R10, R13
	JGE     g48nopf
	MOVLQSX PREFETCH_DIST*4(DX)(R10*4), R12
	IMULQ   R8, R12
	ADDQ    BX, R12
	PREFETCHT0 0(R12)
	PREFETCHT0 64(R12)
	PREFETCHT0 128(R12)
	PREFETCHT0 192(R12)
	PREFETCHT0 256(R12)
	PREFETCHT0 320(R12)

g48nopf:
	MOVLQSX      (DX)(R10*4), R11
	IMULQ        R8, R11
	ADDQ         BX, R11
	VBROADCASTSD (SI)(R10*8), Y12
	VFMADD231PD  0(R11), Y12, Y0
	VFMADD231PD  32(R11), Y12, Y1
	VFMADD231PD  64(R11), Y12, Y2
	VFMADD231PD  96(R11), Y12, Y3
	VFMADD231PD  128(R11), Y12, Y4
	VFMADD231PD  160(R11), Y12, Y5
	VFMADD231PD  192(R11), Y12, Y6
	VFMADD231PD  224(R11), Y12, Y7
	VFMADD231PD  256(R11), Y12, Y8
	VFMADD231PD  288(R11), Y12, Y9
	VFMADD231PD  320(R11), Y12, Y10
	VFMADD231PD  352(R11), Y12, Y11
	INCQ         R10
	CMPQ         R10, CX
	JLT          g48loop

g48done:
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

// func gatherSum32(dst, vals *float64, idx *int32, n int, src *float64, sb, add int)
TEXT ·gatherSum32(SB), NOSPLIT, $0-56
	MOVQ dst+0(FP), DI
	MOVQ vals+8(FP), SI
	MOVQ idx+16(FP), DX
	MOVQ n+24(FP), CX
	MOVQ src+32(FP), BX
	MOVQ sb+40(FP), R8
	MOVQ add+48(FP), R9
	TESTQ R9, R9
	JZ   g32zero
	VMOVUPD 0(DI), Y0
	VMOVUPD 32(DI), Y1
	VMOVUPD 64(DI), Y2
	VMOVUPD 96(DI), Y3
	VMOVUPD 128(DI), Y4
	VMOVUPD 160(DI), Y5
	VMOVUPD 192(DI), Y6
	VMOVUPD 224(DI), Y7
	JMP  g32start

g32zero:
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7

g32start:
	XORQ  R10, R10
	TESTQ CX, CX
	JZ    g32done

g32loop:
	MOVLQSX      (DX)(R10*4), R11
	IMULQ        R8, R11
	ADDQ         BX, R11
	VBROADCASTSD (SI)(R10*8), Y8
	VFMADD231PD  0(R11), Y8, Y0
	VFMADD231PD  32(R11), Y8, Y1
	VFMADD231PD  64(R11), Y8, Y2
	VFMADD231PD  96(R11), Y8, Y3
	VFMADD231PD  128(R11), Y8, Y4
	VFMADD231PD  160(R11), Y8, Y5
	VFMADD231PD  192(R11), Y8, Y6
	VFMADD231PD  224(R11), Y8, Y7
	INCQ         R10
	CMPQ         R10, CX
	JLT          g32loop

g32done:
	VMOVUPD Y0, 0(DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	VMOVUPD Y4, 128(DI)
	VMOVUPD Y5, 160(DI)
	VMOVUPD Y6, 192(DI)
	VMOVUPD Y7, 224(DI)
	VZEROUPPER
	RET

// func gatherSum16(dst, vals *float64, idx *int32, n int, src *float64, sb, add int)
TEXT ·gatherSum16(SB), NOSPLIT, $0-56
	MOVQ dst+0(FP), DI
	MOVQ vals+8(FP), SI
	MOVQ idx+16(FP), DX
	MOVQ n+24(FP), CX
	MOVQ src+32(FP), BX
	MOVQ sb+40(FP), R8
	MOVQ add+48(FP), R9
	TESTQ R9, R9
	JZ   g16zero
	VMOVUPD 0(DI), Y0
	VMOVUPD 32(DI), Y1
	VMOVUPD 64(DI), Y2
	VMOVUPD 96(DI), Y3
	JMP  g16start

g16zero:
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3

g16start:
	XORQ  R10, R10
	TESTQ CX, CX
	JZ    g16done

g16loop:
	MOVLQSX      (DX)(R10*4), R11
	IMULQ        R8, R11
	ADDQ         BX, R11
	VBROADCASTSD (SI)(R10*8), Y8
	VFMADD231PD  0(R11), Y8, Y0
	VFMADD231PD  32(R11), Y8, Y1
	VFMADD231PD  64(R11), Y8, Y2
	VFMADD231PD  96(R11), Y8, Y3
	INCQ         R10
	CMPQ         R10, CX
	JLT          g16loop

g16done:
	VMOVUPD Y0, 0(DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	VZEROUPPER
	RET

// func gatherSum4(dst, vals *float64, idx *int32, n int, src *float64, sb, add int)
TEXT ·gatherSum4(SB), NOSPLIT, $0-56
	MOVQ dst+0(FP), DI
	MOVQ vals+8(FP), SI
	MOVQ idx+16(FP), DX
	MOVQ n+24(FP), CX
	MOVQ src+32(FP), BX
	MOVQ sb+40(FP), R8
	MOVQ add+48(FP), R9
	TESTQ R9, R9
	JZ   g4zero
	VMOVUPD 0(DI), Y0
	JMP  g4start

g4zero:
	VXORPD Y0, Y0, Y0

g4start:
	XORQ  R10, R10
	TESTQ CX, CX
	JZ    g4done

g4loop:
	MOVLQSX      (DX)(R10*4), R11
	IMULQ        R8, R11
	ADDQ         BX, R11
	VBROADCASTSD (SI)(R10*8), Y8
	VFMADD231PD  0(R11), Y8, Y0
	INCQ         R10
	CMPQ         R10, CX
	JLT          g4loop

g4done:
	VMOVUPD Y0, 0(DI)
	VZEROUPPER
	RET

// func dotsGatherAVX(out, a *float64, k int, idx *int32, n int, src *float64, sb int)
//	DI out, SI a, R9 k, DX idx, CX n, BX src, R8 stride in bytes,
//	R10 p, R11 gathered row, R12 column, Y0-Y3 accumulators.
TEXT ·dotsGatherAVX(SB), NOSPLIT, $0-56
	MOVQ out+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ k+16(FP), R9
	MOVQ idx+24(FP), DX
	MOVQ n+32(FP), CX
	MOVQ src+40(FP), BX
	MOVQ sb+48(FP), R8
	MOVQ R9, R13
	ANDQ $-16, R13 // columns in blocks of 16
	XORQ R10, R10
	TESTQ CX, CX
	JZ   dgdone

dgrow:
	MOVLQSX (DX)(R10*4), R11
	IMULQ   R8, R11
	ADDQ    BX, R11
	VXORPD  Y0, Y0, Y0
	VXORPD  Y1, Y1, Y1
	VXORPD  Y2, Y2, Y2
	VXORPD  Y3, Y3, Y3
	XORQ    R12, R12
	CMPQ    R12, R13
	JGE     dgtail

dg16:
	VMOVUPD     0(SI)(R12*8), Y4
	VMOVUPD     32(SI)(R12*8), Y5
	VMOVUPD     64(SI)(R12*8), Y6
	VMOVUPD     96(SI)(R12*8), Y7
	VFMADD231PD 0(R11)(R12*8), Y4, Y0
	VFMADD231PD 32(R11)(R12*8), Y5, Y1
	VFMADD231PD 64(R11)(R12*8), Y6, Y2
	VFMADD231PD 96(R11)(R12*8), Y7, Y3
	ADDQ        $16, R12
	CMPQ        R12, R13
	JLT         dg16

dgtail:
	CMPQ R12, R9
	JGE  dgsum

dg4:
	VMOVUPD     0(SI)(R12*8), Y4
	VFMADD231PD 0(R11)(R12*8), Y4, Y0
	ADDQ        $4, R12
	CMPQ        R12, R9
	JLT         dg4

dgsum:
	VADDPD       Y1, Y0, Y0
	VADDPD       Y3, Y2, Y2
	VADDPD       Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD       X1, X0, X0
	VPERMILPD    $1, X0, X1
	VADDSD       X1, X0, X0
	VMOVSD       X0, (DI)(R10*8)
	INCQ         R10
	CMPQ         R10, CX
	JLT          dgrow

dgdone:
	VZEROUPPER
	RET
