package text

import "fmt"

func errorf(format string, args ...any) error {
	return fmt.Errorf("text: "+format, args...)
}
