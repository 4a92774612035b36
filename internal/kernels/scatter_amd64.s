//go:build amd64 && !purego

#include "textflag.h"

// The scatter kernel: for each entry p, the row of dst at (idx[p]−off)
// receives vals[p]·b, sixteen then four columns at a time; the product is
// rounded (VMULPD) before the addition (VADDPD), as floats.AddScaled
// does. Register use: DI dst, R8 row stride in bytes, DX idx, R9 off,
// SI vals, CX n, BX b, R13 width in bytes, R10 p, R11 address of the
// row, R12 column offset in bytes, Y15 the broadcast vals[p].

// func scatterAdd(dst *float64, sb int, idx *int32, off int, vals *float64, n int, b *float64, w int)
TEXT ·scatterAdd(SB), NOSPLIT, $0-64
	MOVQ dst+0(FP), DI
	MOVQ sb+8(FP), R8
	MOVQ idx+16(FP), DX
	MOVQ off+24(FP), R9
	MOVQ vals+32(FP), SI
	MOVQ n+40(FP), CX
	MOVQ b+48(FP), BX
	MOVQ w+56(FP), R13
	SHLQ $3, R13
	MOVQ R13, R14
	ANDQ $-128, R14 // bytes covered sixteen columns at a time
	XORQ R10, R10
	TESTQ CX, CX
	JZ    scatterAddDone

scatterAddEntry:
	MOVLQSX      (DX)(R10*4), R11
	SUBQ         R9, R11
	IMULQ        R8, R11
	ADDQ         DI, R11
	VBROADCASTSD (SI)(R10*8), Y15
	XORQ         R12, R12
	CMPQ         R12, R14
	JGE          scatterAddTail

scatterAdd16:
	VMULPD  0(BX)(R12*1), Y15, Y0
	VMULPD  32(BX)(R12*1), Y15, Y1
	VMULPD  64(BX)(R12*1), Y15, Y2
	VMULPD  96(BX)(R12*1), Y15, Y3
	VADDPD  0(R11)(R12*1), Y0, Y0
	VADDPD  32(R11)(R12*1), Y1, Y1
	VADDPD  64(R11)(R12*1), Y2, Y2
	VADDPD  96(R11)(R12*1), Y3, Y3
	VMOVUPD Y0, 0(R11)(R12*1)
	VMOVUPD Y1, 32(R11)(R12*1)
	VMOVUPD Y2, 64(R11)(R12*1)
	VMOVUPD Y3, 96(R11)(R12*1)
	ADDQ    $128, R12
	CMPQ    R12, R14
	JLT     scatterAdd16

scatterAddTail:
	CMPQ R12, R13
	JGE  scatterAddNext

scatterAdd4:
	VMULPD  0(BX)(R12*1), Y15, Y0
	VADDPD  0(R11)(R12*1), Y0, Y0
	VMOVUPD Y0, 0(R11)(R12*1)
	ADDQ    $32, R12
	CMPQ    R12, R13
	JLT     scatterAdd4

scatterAddNext:
	INCQ R10
	CMPQ R10, CX
	JLT  scatterAddEntry

scatterAddDone:
	VZEROUPPER
	RET
