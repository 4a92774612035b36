// Package enum writes small enumerations to JSON as their names, so that a
// saved file keeps its meaning when constants are reordered or added, and
// reads back both the names and the integers that files written before
// names were used hold.
package enum
