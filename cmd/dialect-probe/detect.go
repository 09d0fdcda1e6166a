package main

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dialectkit/toolcall/probe"
	"github.com/dialectkit/toolcall/registry"
)

type detectFlags struct {
	template string
	model    string
	parser   string
	json     bool
}

func newDetectCmd() *cobra.Command {
	var f detectFlags
	cmd := &cobra.Command{
		Use:   "detect FILE [--model NAME] [flags]",
		Short: "Name the tool-call dialect of a chat template, offline",
		Long: `detect reads a chat template (FILE, or --template FILE) and names the dialect its model calls tools in,
with the markers that decided, as probe does with the template a server
returns, without asking any server.

FILE is a Jinja template (a GGUF tokenizer.chat_template, llama.cpp's
--chat-template-file), an Ollama Go TEMPLATE, a GGUF model file (its
tokenizer.chat_template is read from the header), a Hugging Face
tokenizer_config.json, or an Ollama /api/show answer saved as JSON (its parser
name is evidence too). --model adds the model-name table's evidence, --parser an
Ollama built-in parser name.

Exit status: 0 when a dialect was named; 1 when the template names none (no
tool support, or markers no rule knows); 2 for usage and I/O errors.`,
		Example: `  dialect-probe detect Modelfile.template
  dialect-probe detect qwen3-8b-q4_k_m.gguf --json
  curl -s localhost:11434/api/show -d '{"model":"qwen3:8b"}' > show.json && dialect-probe detect show.json`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				if f.template != "" && f.template != args[0] {
					return fmt.Errorf("two templates: %s and --template %s; give one", args[0], f.template)
				}
				f.template = args[0]
			}
			return runDetect(cmd, &f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.template, "template", "", "the chat template file (the same as the FILE argument)")
	fl.StringVarP(&f.model, "model", "m", "", "model name, for the model-name table's evidence")
	fl.StringVar(&f.parser, "parser", "", "Ollama built-in parser name (PARSER of the Modelfile)")
	fl.BoolVar(&f.json, "json", false, "print the detection as JSON")
	return cmd
}

// detectReport is the --json output, and what the human output prints.
type detectReport struct {
	File   string `json:"file"`
	Format string `json:"format"`
	Name   string `json:"name,omitempty"`
	Bytes  int    `json:"bytes"`
	// Dialect is the strongest evidence's dialect, and Source which
	// evidence it was: "template", "parser" or "model".
	Dialect   string                     `json:"dialect"`
	Source    string                     `json:"source,omitempty"`
	Template  registry.TemplateDetection `json:"template"`
	Parser    *evidenceRecord            `json:"parser,omitempty"`
	ModelRule *evidenceRecord            `json:"model,omitempty"`
}

type evidenceRecord struct {
	Name    string `json:"name"`
	Dialect string `json:"dialect"`
	Pattern string `json:"pattern,omitempty"`
}

func runDetect(cmd *cobra.Command, f *detectFlags) error {
	if f.template == "" {
		return errors.New("no template: give its FILE (dialect-probe detect FILE)")
	}
	t, err := probe.ReadTemplateFile(f.template)
	if err != nil {
		return fmt.Errorf("%s: %w", f.template, err)
	}
	reg := registry.Default()
	r := detectReport{File: f.template, Format: t.Format, Name: t.Name, Bytes: len(t.Template),
		Template: reg.DetectTemplate(t.Template)}
	if parser := cmp.Or(f.parser, t.Parser); parser != "" {
		r.Parser = &evidenceRecord{Name: parser, Dialect: reg.DialectForOllamaParser(parser)}
	}
	if f.model != "" {
		d, pattern := reg.DialectForModel(f.model)
		r.ModelRule = &evidenceRecord{Name: f.model, Dialect: d, Pattern: pattern}
	}
	switch {
	case r.Template.Dialect != "":
		r.Dialect, r.Source = r.Template.Dialect, "template"
	case r.Parser != nil && r.Parser.Dialect != "":
		r.Dialect, r.Source = r.Parser.Dialect, "parser"
	case r.ModelRule != nil && r.ModelRule.Dialect != "":
		r.Dialect, r.Source = r.ModelRule.Dialect, "model"
	}
	w := cmd.OutOrStdout()
	if f.json {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		err = enc.Encode(r)
	} else {
		err = printDetect(w, &r)
	}
	if err != nil {
		return err
	}
	if r.Dialect == "" {
		return exitError{1}
	}
	return nil
}

func printDetect(w io.Writer, r *detectReport) error {
	var b strings.Builder
	name := ""
	if r.Name != "" {
		name = ", template " + r.Name
	}
	kind := cmp.Or(r.Template.Kind, "empty")
	fmt.Fprintf(&b, "file: %s (%s%s: %s template, %d bytes)\n", r.File, r.Format, name, kind, r.Bytes)
	fmt.Fprintf(&b, "renders tools: %s; renders tool calls: %s", yesNo(r.Template.Tools), yesNo(r.Template.ToolCalls))
	if r.Template.CallTag != "" {
		fmt.Fprintf(&b, "; call tag %q", r.Template.CallTag)
	}
	if r.Template.ReasoningDepends {
		b.WriteString("; may open a reasoning block (thinking on: --reasoning-open; off: --reasoning-closed)")
	}
	if r.Template.OpensReasoning {
		b.WriteString("; opens a reasoning block (parse with --reasoning-open)")
	}
	b.WriteString("\n")
	if r.Dialect == "" {
		fmt.Fprintf(&b, "dialect: none (%s)\n", r.Template.Reason)
	} else {
		fmt.Fprintf(&b, "dialect: %s (from the %s)\n", r.Dialect, r.Source)
	}
	for i, m := range r.Template.Matches {
		quoted := make([]string, len(m.Markers))
		for j, s := range m.Markers {
			quoted[j] = fmt.Sprintf("%q", s)
		}
		fmt.Fprintf(&b, "  template %d. %s — %s: %s\n", i+1, m.Dialect, m.Source, strings.Join(quoted, " + "))
	}
	if p := r.Parser; p != nil {
		fmt.Fprintf(&b, "  parser: %s reads %s\n", p.Name, cmp.Or(p.Dialect, "no known dialect"))
	}
	if m := r.ModelRule; m != nil {
		if m.Dialect != "" {
			fmt.Fprintf(&b, "  model: %s matches %q: %s\n", m.Name, m.Pattern, m.Dialect)
		} else {
			fmt.Fprintf(&b, "  model: no rule matches %s\n", m.Name)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
