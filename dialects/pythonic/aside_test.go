package pythonic_test

import (
	"testing"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/dialects/pythonic"
)

// TestListInSentence: a call list without markers that sits inside a
// sentence on its line (the sentence runs up to it and goes on after it,
// or it stands in an aside or a quotation the sentence opened) or in a cell
// of a markdown table is shown,
// its text kept whole in the content with no error; a list alone on its
// line, opening the output, after a colon at the end of the line or
// followed by nothing more on its line stays a call. Every dialect that
// reads marker-less lists (lfm2 and olmo3 for declared tools only) reads
// them alike. Each row is streamed too (runRows).
func TestListInSentence(t *testing.T) {
	shown := []string{
		`I would run it (see [get_weather(city="Paris")]) later.`,
		`I checked it (see [get_weather(city="Paris")]).`,
		`(see [get_weather(city="Paris")])`,
		`The call ([get_weather(city="Paris")]) returns the weather.`,
		`You can call [get_weather(city="Paris")], then read the result.`,
		`I will call [get_weather(city="Paris")]. Then I will answer.`,
		`Try [get_weather(city="Paris")]: it returns the weather.`,
		`For example, [get_weather(city="Paris")] returns the weather.`,
		`Use **[get_weather(city="Paris")]** to check.`,
		`He typed “[get_weather(city="Paris")]” into the box.`,
		`He typed “[get_weather(city="Paris")]”.`,
		`He typed "[get_weather(city="Paris")]" into the box.`,
		"| Tool | Example |\n|---|---|\n| weather | [get_weather(city=\"Paris\")] |",
		"| [get_weather(city=\"Paris\")] | the weather |",
		"Note:\nI would run it (see [get_weather(city=\"Paris\"), get_time()]) later.\nDone.",
		`Checking now [get_weather(city="Paris")])`,
	}
	made := []row{
		{name: "alone", text: `[get_weather(city="Paris")]`},
		{name: "on its own line", text: "I will check.\n[get_weather(city=\"Paris\")]\nOne moment.", content: "I will check.\nOne moment."},
		{name: "after a colon at the end", text: `Let me check: [get_weather(city="Paris")]`, content: "Let me check:"},
		{name: "followed by blanks only", text: "I will check [get_weather(city=\"Paris\")]  \n", content: "I will check"},
		{name: "after a sentence that ended", text: `Sure: [get_weather(city="Paris")] coming up.`, content: "Sure: coming up."},
	}
	for _, d := range []dialects.Dialect{pythonic.Pythonic, pythonic.Llama4Pythonic, pythonic.LFM2, pythonic.Olmo3} {
		t.Run(d.Name(), func(t *testing.T) {
			var rows []row
			for _, text := range shown {
				rows = append(rows, row{name: text, text: text, tools: weatherTools, content: text,
					chunks: []string{text[:len(text)/2], text[len(text)/2:]}})
			}
			for _, r := range made {
				r.tools = weatherTools
				r.calls = calls("get_weather", `{"city":"Paris"}`)
				rows = append(rows, r)
			}
			runRows(t, d, rows)
		})
	}
}
