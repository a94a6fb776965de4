package remedy_test

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"testing"

	"github.com/symedit/symedit/remedy"
)

// carrier is an error with a remedy, wrapping another error (or none).
type carrier struct {
	r   remedy.Remedy
	err error
}

func (c *carrier) Error() string         { return "carrier" }
func (c *carrier) Unwrap() error         { return c.err }
func (c *carrier) Remedy() remedy.Remedy { return c.r }

func TestOf(t *testing.T) {
	match := remedy.Set(remedy.Match, "indent")
	partial := remedy.Set(remedy.Partial, "true")
	for _, tt := range []struct {
		name string
		err  error
		want remedy.Remedy
	}{
		{"nil", nil, nil},
		{"no carrier", fs.ErrNotExist, nil},
		{"carrier", &carrier{r: match}, match},
		{"wrapped by fmt.Errorf", fmt.Errorf("edit 1: %w", &carrier{r: match}), match},
		{"carrier without one wraps one with", &carrier{err: &carrier{r: match}}, match},
		{"the outermost wins", &carrier{r: partial, err: &carrier{r: match}}, partial},
		{"joined: the first branch with one", errors.Join(fs.ErrNotExist, &carrier{r: partial}, &carrier{r: match}), partial},
		{"joined, none", errors.Join(fs.ErrNotExist, fs.ErrPermission), nil},
		{"joined inside a wrap", fmt.Errorf("x: %w", errors.Join(&carrier{}, &carrier{err: &carrier{r: match}})), match},
	} {
		if got := remedy.Of(tt.err); !slices.Equal(got, tt.want) {
			t.Errorf("%s: Of = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func ExampleOf() {
	// A package below the front ends refuses with a remedy as data...
	err := fmt.Errorf("chunk 2: %w", &carrier{r: remedy.Set(remedy.Match, "indent")})
	// ...and a front end finds it and words it its own way.
	for _, s := range remedy.Of(err) {
		fmt.Printf("option %s, value %s\n", s.Option, s.Value)
	}
	// Output: option match, value indent
}
