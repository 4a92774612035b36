//go:build amd64 && !purego

#include "textflag.h"

// Constants of logAVX2 and expAVX2, each broadcast to four lanes when used.
DATA lecon<>+0(SB)/8, $0x000FFFFFFFFFFFFF   // mantissa bits
DATA lecon<>+8(SB)/8, $0.5                  // 0x3FE0000000000000
DATA lecon<>+16(SB)/8, $0x4330000000000000  // 2⁵², as bits and as a number
DATA lecon<>+24(SB)/8, $0x00000000000007FF  // exponent field
DATA lecon<>+32(SB)/8, $1022.0
DATA lecon<>+40(SB)/8, $54.0
DATA lecon<>+48(SB)/8, $0x4350000000000000  // 2⁵⁴
DATA lecon<>+56(SB)/8, $0x0010000000000000  // smallest normal number (bits)
DATA lecon<>+64(SB)/8, $7.07106781186547524401e-01 // √2/2
DATA lecon<>+72(SB)/8, $1.0
DATA lecon<>+80(SB)/8, $2.0
DATA lecon<>+88(SB)/8, $6.666666666666735130e-01   // L1
DATA lecon<>+96(SB)/8, $3.999999999940941908e-01   // L2
DATA lecon<>+104(SB)/8, $2.857142874366239149e-01  // L3
DATA lecon<>+112(SB)/8, $2.222219843214978396e-01  // L4
DATA lecon<>+120(SB)/8, $1.818357216161805012e-01  // L5
DATA lecon<>+128(SB)/8, $1.531383769920937332e-01  // L6
DATA lecon<>+136(SB)/8, $1.479819860511658591e-01  // L7
DATA lecon<>+144(SB)/8, $1.90821492927058770002e-10 // Ln2Lo
DATA lecon<>+152(SB)/8, $6.93147180369123816490e-01 // Ln2Hi
DATA lecon<>+160(SB)/8, $0x7FEFFFFFFFFFFFFF  // largest finite number (bits)
DATA lecon<>+168(SB)/8, $0x7FF8000000000001  // math.Log's NaN
DATA lecon<>+176(SB)/8, $0xFFF0000000000000  // −Inf
DATA lecon<>+184(SB)/8, $0x7FFFFFFFFFFFFFFF  // all but the sign
DATA lecon<>+192(SB)/8, $1.4426950408889634073599246810018920  // log₂ e
DATA lecon<>+200(SB)/8, $0.69314718055966295651160180568695068359375 // upper half of ln 2
DATA lecon<>+208(SB)/8, $0.28235290563031577122588448175013436025525412068e-12 // lower half
DATA lecon<>+216(SB)/8, $0.0625
DATA lecon<>+224(SB)/8, $2.4801587301587301587e-5
DATA lecon<>+232(SB)/8, $1.9841269841269841270e-4
DATA lecon<>+240(SB)/8, $1.3888888888888888889e-3
DATA lecon<>+248(SB)/8, $8.3333333333333333333e-3
DATA lecon<>+256(SB)/8, $4.1666666666666666667e-2
DATA lecon<>+264(SB)/8, $1.6666666666666666667e-1
DATA lecon<>+272(SB)/8, $7.09782712893384e+02 // above: +Inf
DATA lecon<>+280(SB)/8, $1023                 // exponent bias (integer)
DATA lecon<>+288(SB)/8, $-52                  // below: 0 (integer)
DATA lecon<>+296(SB)/8, $2046                 // above: +Inf (integer)
DATA lecon<>+304(SB)/8, $0x7FF0000000000000   // +Inf
DATA lecon<>+312(SB)/8, $1022                 // integer
DATA lecon<>+320(SB)/8, $1                    // integer
GLOBL lecon<>(SB), RODATA|NOPTR, $328

#define C(off, reg) VBROADCASTSD lecon<>+off(SB), reg

// func logAVX2(dst, src *float64, n int)
//
// math.Log's algorithm (fdlibm's, as in math/log_amd64.s), the same
// operations in the same order, four lanes at a time, without fused
// multiply-adds: bit for bit math.Log on every input it handles.
// Subnormal inputs are scaled by 2⁵⁴ first, as fdlibm does (math.Log's
// amd64 assembly does not). n is a multiple of 4.
//
// Registers: SI src, DI dst, CX bytes, AX offset, Y14 x, Y13 the
// exponent correction of subnormals, Y15 zero.
TEXT ·logAVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	SHLQ $3, CX
	XORQ AX, AX
	VPXOR Y15, Y15, Y15

logloop:
	CMPQ AX, CX
	JGE  logdone
	VMOVUPD (SI)(AX*1), Y14

	// Subnormal (0 < x < 2⁻¹⁰²²): x·2⁵⁴, and k is 54 less.
	C(56, Y1)
	VPCMPGTQ Y14, Y1, Y2  // Y2 = minNormal > x (signed: negative too)
	VPCMPGTQ Y15, Y14, Y3 // Y3 = x > 0
	VPAND    Y3, Y2, Y2
	C(48, Y4)
	VMULPD    Y4, Y14, Y4
	VBLENDVPD Y2, Y4, Y14, Y0 // Y0 = sub ? x·2⁵⁴ : x
	C(40, Y13)
	VANDPD    Y2, Y13, Y13    // 54 or 0

	// f1, ki := Frexp(x); k := float64(ki)
	C(0, Y1)
	VPAND Y1, Y0, Y5
	C(8, Y1)
	VPOR  Y1, Y5, Y5 // Y5 = f1
	VPSRLQ $52, Y0, Y6
	C(24, Y1)
	VPAND Y1, Y6, Y6
	C(16, Y1)
	VPOR   Y1, Y6, Y6
	VSUBPD Y1, Y6, Y6 // biased exponent as a number
	C(32, Y1)
	VSUBPD Y1, Y6, Y6
	VSUBPD Y13, Y6, Y6 // Y6 = k

	// if f1 <= √2/2 { k--; f1 *= 2 } (math/log_amd64.s compares "not less than")
	C(64, Y1)
	VCMPPD $2, Y1, Y5, Y7 // Y7 = f1 <= √2/2
	C(72, Y12)            // Y12 = 1
	VANDPD Y7, Y12, Y8
	VSUBPD Y8, Y6, Y6
	VANDPD Y7, Y5, Y8
	VADDPD Y8, Y5, Y5

	// f := f1 − 1; s := f / (2 + f)
	VSUBPD Y12, Y5, Y5 // Y5 = f
	C(80, Y1)
	VADDPD Y5, Y1, Y7
	VDIVPD Y7, Y5, Y8 // Y8 = s
	VMULPD Y8, Y8, Y9 // Y9 = s2
	VMULPD Y9, Y9, Y10 // Y10 = s4

	// t1 := s2 * (L1 + s4*(L3+s4*(L5+s4*L7)))
	C(136, Y11)
	VMULPD Y10, Y11, Y11
	C(120, Y1)
	VADDPD Y1, Y11, Y11
	VMULPD Y10, Y11, Y11
	C(104, Y1)
	VADDPD Y1, Y11, Y11
	VMULPD Y10, Y11, Y11
	C(88, Y1)
	VADDPD Y1, Y11, Y11
	VMULPD Y11, Y9, Y11 // Y11 = t1

	// t2 := s4 * (L2 + s4*(L4+s4*L6))
	C(128, Y12)
	VMULPD Y10, Y12, Y12
	C(112, Y1)
	VADDPD Y1, Y12, Y12
	VMULPD Y10, Y12, Y12
	C(96, Y1)
	VADDPD Y1, Y12, Y12
	VMULPD Y12, Y10, Y12 // Y12 = t2
	VADDPD Y12, Y11, Y11 // Y11 = R

	// hfsq := 0.5 * f * f
	C(8, Y12)
	VMULPD Y5, Y12, Y12
	VMULPD Y5, Y12, Y12 // Y12 = hfsq

	// k*Ln2Hi - ((hfsq - (s*(hfsq+R) + k*Ln2Lo)) - f)
	VADDPD Y12, Y11, Y11
	VMULPD Y11, Y8, Y11
	C(144, Y1)
	VMULPD Y6, Y1, Y1
	VADDPD Y1, Y11, Y11
	VSUBPD Y11, Y12, Y12
	VSUBPD Y5, Y12, Y12
	C(152, Y1)
	VMULPD Y1, Y6, Y1
	VSUBPD Y12, Y1, Y0 // Y0 = log x where x is finite and positive

	// +Inf and NaN: x; negative: NaN; ±0: −Inf.
	C(160, Y1)
	VPCMPGTQ  Y1, Y14, Y2 // x > largest finite (signed)
	VBLENDVPD Y2, Y14, Y0, Y0
	VPCMPGTQ  Y14, Y15, Y2 // 0 > x (signed)
	C(168, Y1)
	VBLENDVPD Y2, Y1, Y0, Y0
	C(184, Y1)
	VPAND     Y1, Y14, Y2
	VPCMPEQQ  Y15, Y2, Y2
	C(176, Y1)
	VBLENDVPD Y2, Y1, Y0, Y0

	VMOVUPD Y0, (DI)(AX*1)
	ADDQ    $32, AX
	JMP     logloop

logdone:
	VZEROUPPER
	RET

// EXP4 sets Y0 to math.Exp of the four lanes of Y14 (math/exp_amd64.s's
// avxfma path, the same operations in the same order; see expAVX2),
// using Y0–Y7:
//   - e := int32(round(x·log₂ e)); k := float64(e)
//   - r := (x − k·ln2U − k·ln2L) / 16
//   - Taylor series, then (e^r − 1)·(e^r + 1) four times.
//   - scale by 2^e: e+1023 > 0: one product by 2^e; e+1023 in [−52, 0]:
//     by 2^(e+1022+1023) then 2⁻¹⁰²², as math.Exp does.
//   - e+1023 < −52: 0; e+1023 > 2046 or x > 709.78…: +Inf; NaN: x.
#define EXP4 \
	C(192, Y1) \
	VMULPD     Y14, Y1, Y1 \
	VCVTPD2DQY Y1, X2 \
	VCVTDQ2PD  X2, Y1 \
	VMOVAPD      Y14, Y0 \
	C(200, Y3) \
	VFNMADD231PD Y3, Y1, Y0 \
	C(208, Y3) \
	VFNMADD231PD Y3, Y1, Y0 \
	C(216, Y3) \
	VMULPD       Y3, Y0, Y0 \
	C(224, Y1) \
	C(232, Y3) \
	VFMADD213PD Y3, Y0, Y1 \
	C(240, Y3) \
	VFMADD213PD Y3, Y0, Y1 \
	C(248, Y3) \
	VFMADD213PD Y3, Y0, Y1 \
	C(256, Y3) \
	VFMADD213PD Y3, Y0, Y1 \
	C(264, Y3) \
	VFMADD213PD Y3, Y0, Y1 \
	C(8, Y3) \
	VFMADD213PD Y3, Y0, Y1 \
	C(72, Y4) \
	VFMADD213PD Y4, Y0, Y1 \
	VMULPD      Y1, Y0, Y0 \
	C(80, Y3) \
	VADDPD      Y3, Y0, Y1 \
	VMULPD      Y1, Y0, Y0 \
	VADDPD      Y3, Y0, Y1 \
	VMULPD      Y1, Y0, Y0 \
	VADDPD      Y3, Y0, Y1 \
	VMULPD      Y1, Y0, Y0 \
	VADDPD      Y3, Y0, Y1 \
	VFMADD213PD Y4, Y1, Y0 \
	VPMOVSXDQ X2, Y2 \
	C(280, Y3) \
	VPADDQ    Y3, Y2, Y2 \
	C(320, Y6) \
	VPCMPGTQ  Y2, Y6, Y5 \
	C(312, Y6) \
	VPAND     Y5, Y6, Y6 \
	VPADDQ    Y6, Y2, Y6 \
	VPSLLQ    $52, Y6, Y6 \
	VMULPD    Y6, Y0, Y0 \
	C(56, Y6) \
	VBLENDVPD Y5, Y6, Y4, Y6 \
	VMULPD    Y6, Y0, Y0 \
	C(288, Y6) \
	VPCMPGTQ  Y2, Y6, Y5 \
	VPANDN    Y0, Y5, Y0 \
	C(296, Y6) \
	VPCMPGTQ  Y6, Y2, Y5 \
	C(272, Y6) \
	VCMPPD    $0x1e, Y6, Y14, Y7 \
	VPOR      Y7, Y5, Y5 \
	C(304, Y6) \
	VBLENDVPD Y5, Y6, Y0, Y0 \
	VCMPPD    $3, Y14, Y14, Y5 \
	VBLENDVPD Y5, Y14, Y0, Y0

// func expAVX2(dst, src *float64, n int)
//
// math.Exp's algorithm on processors with FMA (math/exp_amd64.s, the
// avxfma path, after Shibata's SLEEF), the same operations in the same
// order, four lanes at a time: bit for bit math.Exp on such processors,
// its special cases included. n is a multiple of 4.
//
// Registers: SI src, DI dst, CX bytes, AX offset, Y14 x, Y15 zero.
TEXT ·expAVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	SHLQ $3, CX
	XORQ AX, AX
	VPXOR Y15, Y15, Y15

exploop:
	CMPQ AX, CX
	JGE  expdone
	VMOVUPD (SI)(AX*1), Y14
	EXP4

	VMOVUPD Y0, (DI)(AX*1)
	ADDQ    $32, AX
	JMP     exploop

expdone:
	VZEROUPPER
	RET

// func expShiftSumAVX2(dst, src *float64, n int, shift float64, acc *[4]float64)
//
// dst[i] = exp(src[i] − shift) for i < n (EXP4 on the differences, so the
// bits of math.Exp(src[i] − shift)), adding each lane's results to acc[lane]
// in the order of i. n is a multiple of 4.
//
// Registers: SI src, DI dst, CX bytes, AX offset, Y14 x, Y13 the sums,
// Y12 shift.
TEXT ·expShiftSumAVX2(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	SHLQ $3, CX
	VBROADCASTSD shift+24(FP), Y12
	MOVQ acc+32(FP), DX
	VMOVUPD (DX), Y13
	XORQ AX, AX

essloop:
	CMPQ AX, CX
	JGE  essdone
	VMOVUPD (SI)(AX*1), Y14
	VSUBPD  Y12, Y14, Y14
	EXP4
	VMOVUPD Y0, (DI)(AX*1)
	VADDPD  Y0, Y13, Y13
	ADDQ    $32, AX
	JMP     essloop

essdone:
	VMOVUPD Y13, (DX)
	VZEROUPPER
	RET
