package headless

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
	"github.com/tradedesk/tradedesk/api/text"
)

// flagRange is the annotation of a number or duration flag whose help gives a range: a bad value's
// message repeats it (SetFlagRange).
const flagRange = "tradedesk-range"

// SetFlagRange notes the range the help of flag name gives ("1s to 24h"), for the message a value
// that does not parse gets. The range itself is checked where the value is used.
func SetFlagRange(fs *pflag.FlagSet, name, r string) {
	_ = fs.SetAnnotation(name, flagRange, []string{r})
}

// valueForms say, by the type pflag (or a Go flag set it adopted) gives a flag's value, what is
// wrong with a value that does not parse and what to give instead.
var valueForms = func() map[string]string {
	m := map[string]string{
		"duration": "not a duration; give one like 30s, 5m or 1h",
		"bool":     "not true or false; give the flag alone for true, or =false",
		"float32":  "not a number; give one like 10 or 0.5",
		"float64":  "not a number; give one like 10 or 0.5",
	}
	for _, t := range []string{"int", "int8", "int16", "int32", "int64"} {
		m[t] = "not a whole number; give one like 10"
	}
	for _, t := range []string{"uint", "uint8", "uint16", "uint32", "uint64"} {
		m[t] = "not a whole number of 0 or more; give one like 10"
	}
	return m
}()

// flagValueError rewrites pflag's refusal of a value its type cannot parse (`invalid argument
// "soon" for "--expiry-window" flag: time: invalid duration "soon"`) as what to fix:
// `--expiry-window "soon": not a duration; give one like 30s, 5m or 1h (1s to 24h)`, the value
// passed through the sanitiser (text.Quote). A value of tradedesk's own type (--chain ID) already
// says what to fix, and any other error is left as it is.
func flagValueError(err error) error {
	var bad *pflag.InvalidValueError
	if !errors.As(err, &bad) {
		return err
	}
	f := bad.GetFlag()
	form, ok := valueForms[f.Value.Type()]
	if !ok {
		return err
	}
	switch {
	case f.Value.Type() == "bool":
		form = strings.Replace(form, "=false", "--"+f.Name+"=false", 1)
	case errors.Is(err, strconv.ErrRange), strings.Contains(err.Error(), "value out of range"): // pflag's, a Go flag's
		form = "out of range" + form[strings.Index(form, ";"):]
	}
	if r := f.Annotations[flagRange]; len(r) > 0 {
		form += " (" + r[0] + ")"
	}
	return fmt.Errorf("--%s %s: %s", f.Name, text.Quote(bad.GetValue()), form)
}
