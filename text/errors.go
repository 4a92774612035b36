package text

import "fmt"

func errorf(format string, args ...any) error {
	return fmt.Errorf("text: "+format, args...)
}

// prefixed adds the package prefix to err (nil stays nil).
func prefixed(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("text: %w", err)
}
