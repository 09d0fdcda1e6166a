package schema

import "strings"

// number is a decimal number read from text, in the terms coercion and
// typing need.
type number struct {
	// json is the number written as JSON: a leading "+" dropped, leading
	// zeros of the integer part dropped.
	json string
	// integral reports a value without a fractional part ("5", "5.0", "1e3").
	integral bool
	// integer spells an integral value as plain digits ("5.0" → "5",
	// "1e3" → "1000"); it is empty when that would take more than
	// maxIntegerDigits digits.
	integer string
	// leadingZeros reports an integer part such as "007" or "00.5": as a
	// number it loses the zeros, so such text is usually an identifier.
	leadingZeros bool
	// big reports an integral value beyond ±2^53, which consumers that
	// decode numbers as float64 cannot hold exactly.
	big bool
}

const (
	maxIntegerDigits = 30
	// maxExponent caps the exponent read, so that "1e999999999" costs
	// nothing; the cap is far past any value an integer spelling allows.
	maxExponent = 100000
	// maxSafeInteger is 2^53, the largest integer a float64 holds exactly
	// with all smaller ones.
	maxSafeInteger = "9007199254740992"
)

// parseNumber reads s, which must be a JSON-style decimal number with an
// optional leading "+" and possibly leading zeros, and nothing else (no
// spaces, no hex, no "Infinity", no ".5").
func parseNumber(s string) (number, bool) {
	i := 0
	negative := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		negative = s[i] == '-'
		i++
	}
	intStart := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	intDigits := s[intStart:i]
	if intDigits == "" {
		return number{}, false
	}
	var frac string
	if i < len(s) && s[i] == '.' {
		i++
		start := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		frac = s[start:i]
		if frac == "" {
			return number{}, false
		}
	}
	expText, exp := "", 0
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		start := i
		i++
		expNegative := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			expNegative = s[i] == '-'
			i++
		}
		digitsStart := i
		for i < len(s) && isDigit(s[i]) {
			if exp < maxExponent {
				exp = exp*10 + int(s[i]-'0')
			}
			i++
		}
		if i == digitsStart {
			return number{}, false
		}
		if expNegative {
			exp = -exp
		}
		expText = s[start:i]
	}
	if i != len(s) {
		return number{}, false
	}

	n := number{leadingZeros: len(intDigits) > 1 && intDigits[0] == '0'}
	trimmedInt := strings.TrimLeft(intDigits, "0")
	if trimmedInt == "" {
		trimmedInt = "0"
	}
	sign := ""
	if negative {
		sign = "-"
	}
	n.json = sign + trimmedInt
	if frac != "" {
		n.json += "." + frac
	}
	n.json += expText

	// The value is 0.D × 10^point, D being every significant digit.
	digits := strings.TrimLeft(intDigits+frac, "0")
	point := len(trimmedInt) + exp
	if trimmedInt == "0" {
		// Leading zeros of the fraction shift the point left.
		point = exp - (len(frac) - len(strings.TrimLeft(frac, "0")))
	}
	if digits == "" || strings.TrimRight(digits, "0") == "" {
		n.integral, n.integer = true, "0"
		return n, true
	}
	significant := strings.TrimRight(digits, "0")
	n.integral = point >= len(significant)
	if !n.integral {
		return n, true
	}
	if point <= maxIntegerDigits {
		n.integer = sign + significant + strings.Repeat("0", point-len(significant))
	}
	n.big = point > len(maxSafeInteger) ||
		point == len(maxSafeInteger) && significant+strings.Repeat("0", point-len(significant)) > maxSafeInteger
	return n, true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
