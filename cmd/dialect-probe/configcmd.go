package main

import (
	"fmt"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/dialectkit/toolcall/config"
)

func newConfigCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Show the effective tool-call configuration",
	}
	var (
		file, api string
		model     string
		set       []string
		asJSON    bool
	)
	show := &cobra.Command{
		Use:   "show [--config FILE] [--json]",
		Short: "Print every tool-call setting with its value and where it came from",
		Long: `config show prints the effective tool-call configuration that call and probe
use: every setting with its value and its source, one of
  default      the built-in default
  file         the --config FILE (an agent configuration's
               model.providers.<api>.tool_call section, a tool_call: mapping,
               or bare settings), and with --model the entry of the
               section's models mapping that names the model
  environment  a ` + config.EnvPrefix + `<KEY> variable (` + config.EnvVar("max_retries") + `=5)
  flag         a --set KEY=VALUE flag
each overriding the ones before it. A value out of range is reported with
its key and source, as TLP-024.`,
		Example: `  dialect-probe config show
  dialect-probe config show --config .agent/config.yml --json
  dialect-probe config show --config .agent/config.yml --model qwen3:8b
  DIALECTKIT_TOOL_CALL_MAX_RETRIES=5 dialect-probe config show --set coerce_types=true`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if api != apiOllama && api != apiOpenAI {
				return fmt.Errorf("--api must be %s or %s, not %q", apiOllama, apiOpenAI, api)
			}
			_, settings, err := config.ResolveModel(file, api, model, os.LookupEnv, set)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), map[string]any{"settings": settings})
			}
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "SETTING\tVALUE\tSOURCE")
			for _, s := range settings {
				src := string(s.Source)
				if s.From != "" {
					src += " (" + s.From + ")"
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\n", s.Key, showValue(s.Value), src)
			}
			return tw.Flush()
		},
	}
	fl := show.Flags()
	fl.StringVarP(&file, "config", "c", "", "YAML file with the tool-call settings")
	fl.StringVar(&api, "api", apiOllama, "provider whose section of an agent configuration is read: ollama or openai")
	fl.StringVarP(&model, "model", "m", "", "show the settings of this model: its entry of the section's models mapping applied")
	fl.StringArrayVar(&set, "set", nil, "KEY=VALUE: set a setting, as a flag would (repeatable)")
	fl.BoolVar(&asJSON, "json", false, "print the settings as JSON")
	cmd.AddCommand(show)
	return cmd
}

// showValue writes a value on one line: long or multi-line text is cut.
func showValue(v any) string {
	s := fmt.Sprint(v)
	if str, ok := v.(string); ok {
		s = fmt.Sprintf("%q", str)
	}
	if len(s) > 60 {
		s = s[:57] + "…"
	}
	return strings.ReplaceAll(s, "\n", `\n`)
}

// configFromEnv reports whether a DIALECTKIT_TOOL_CALL_* variable is set.
func configFromEnv() bool {
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, config.EnvPrefix) {
			return true
		}
	}
	return false
}
