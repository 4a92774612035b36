package peakmem

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/windows"
)

// processMemoryCounters is psapi.h's PROCESS_MEMORY_COUNTERS.
type processMemoryCounters struct {
	cb                         uint32
	pageFaultCount             uint32
	peakWorkingSetSize         uintptr
	workingSetSize             uintptr
	quotaPeakPagedPoolUsage    uintptr
	quotaPagedPoolUsage        uintptr
	quotaPeakNonPagedPoolUsage uintptr
	quotaNonPagedPoolUsage     uintptr
	pagefileUsage              uintptr
	peakPagefileUsage          uintptr
}

// peak returns PeakWorkingSetSize from GetProcessMemoryInfo, Windows's
// counterpart of ru_maxrss, in bytes. The procedure is looked up in
// psapi.dll from the system folder when called: the benchmarks ask once,
// at the end of a run.
func peak() (uint64, error) {
	proc := windows.NewLazySystemDLL("psapi.dll").NewProc("GetProcessMemoryInfo")
	if err := proc.Find(); err != nil {
		return 0, fmt.Errorf("peakmem: %w", err)
	}
	var c processMemoryCounters
	c.cb = uint32(unsafe.Sizeof(c))
	r, _, err := proc.Call(uintptr(windows.CurrentProcess()), uintptr(unsafe.Pointer(&c)), uintptr(c.cb))
	if r == 0 {
		return 0, fmt.Errorf("peakmem: GetProcessMemoryInfo: %w", err)
	}
	return uint64(c.peakWorkingSetSize), nil
}
