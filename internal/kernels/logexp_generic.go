//go:build !amd64 || purego

package kernels

func logArch(dst, src []float64) { logGeneric(dst, src) }

func expArch(dst, src []float64) { expGeneric(dst, src) }

func expShiftSumArch(z []float64, shift float64) float64 { return expShiftSumGeneric(z, shift) }
