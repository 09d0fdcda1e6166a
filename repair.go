package toolcall

import "fmt"

// RepairKind names one kind of change made to malformed output. The names are
// stable: they appear in logs, statistics and `dialect-probe repair --json`.
type RepairKind string

// Repair kinds applied by the lenient layer, by the dialects and by schema
// coercion. docs/repair.md describes each.
const (
	RepairTrailingComma         RepairKind = "trailing_comma"
	RepairMissingComma          RepairKind = "missing_comma"
	RepairMissingColon          RepairKind = "missing_colon"
	RepairMissingClosingBrace   RepairKind = "missing_closing_brace"
	RepairMissingClosingBracket RepairKind = "missing_closing_bracket"
	RepairMismatchedBracket     RepairKind = "mismatched_bracket"
	RepairExtraClosing          RepairKind = "extra_closing"
	RepairSingleQuotes          RepairKind = "single_quotes"
	RepairUnquotedKey           RepairKind = "unquoted_key"
	RepairUnquotedString        RepairKind = "unquoted_string"
	RepairTruncatedString       RepairKind = "truncated_string"
	RepairTruncatedValue        RepairKind = "truncated_value"
	RepairUnescapedQuotes       RepairKind = "unescaped_quotes"
	RepairControlCharacter      RepairKind = "control_character"
	RepairInvalidEscape         RepairKind = "invalid_escape"
	RepairComment               RepairKind = "comment"
	RepairPythonLiteral         RepairKind = "python_literal"
	RepairJSON5                 RepairKind = "json5"
	RepairNumberFormat          RepairKind = "number_format"
	RepairDoubleEncoded         RepairKind = "double_encoded"
	RepairCodeFence             RepairKind = "code_fence"
	RepairSurroundingText       RepairKind = "surrounding_text"
	RepairBOM                   RepairKind = "bom"
	RepairConcatenated          RepairKind = "concatenated"
	RepairEmptyArguments        RepairKind = "empty_arguments"
	RepairCoercion              RepairKind = "coercion"
	RepairNameNormalized        RepairKind = "name_normalized"
	// Kinds of the lenient repair scanner beyond the original list.
	RepairMissingValue        RepairKind = "missing_value"         // a key with no value got ""
	RepairMissingQuote        RepairKind = "missing_quote"         // a string lacked its opening or closing quote
	RepairMissingOpeningBrace RepairKind = "missing_opening_brace" // "key": value inside an array or at the top
	RepairStrayText           RepairKind = "stray_text"            // a stray quote, comma, ellipsis or word removed
	RepairSmartQuotes         RepairKind = "smart_quotes"          // “curly” quotes used as string delimiters
	RepairInvalidUTF8         RepairKind = "invalid_utf8"          // invalid UTF-8 replaced by U+FFFD
	RepairDuplicateKey        RepairKind = "duplicate_key"         // a key written twice in one object: the last value kept
	// RepairUnclosedTag: a tagged-parameter call or value was missing its
	// closing tag and was ended by what followed it.
	RepairUnclosedTag RepairKind = "unclosed_tag"
	// RepairWrappedArguments: the only argument was named like a wrapper
	// ("arguments", "input", …) the tool does not declare, and held the
	// real arguments, which replaced it.
	RepairWrappedArguments RepairKind = "wrapped_arguments"
	// RepairSchemaMigration: during a transition the caller declared, the
	// arguments broke the tool's current version but were valid under the
	// previous major, and were accepted as such (schema.Options.Transition).
	RepairSchemaMigration RepairKind = "schema_migration"
)

// Repair records one change made to a call's arguments (or name).
type Repair struct {
	// Kind names the change.
	Kind RepairKind `json:"kind"`
	// Offset is the byte offset, in the text that was repaired (a call's
	// argument text, or the call object around it), where the change was
	// made; -1 when the change has no single position.
	Offset int `json:"offset"`
	// CallIndex is the index of the call the repair belongs to, or -1 for a
	// repair of a standalone document.
	CallIndex int `json:"call_index"`
	// Detail says more in a few words, for example the field a coercion
	// changed and how ("/days: string→integer"). It never holds argument
	// values.
	Detail string `json:"detail,omitempty"`
	// Risky marks a change that may not be what the model meant, such as
	// turning the string "false" into a boolean.
	Risky bool `json:"risky,omitempty"`
}

// String describes the repair: its kind and where it was made.
func (r Repair) String() string {
	s := string(r.Kind)
	if r.Offset >= 0 {
		s += fmt.Sprintf("@%d", r.Offset)
	}
	if r.Detail != "" {
		s += " (" + r.Detail + ")"
	}
	return s
}
