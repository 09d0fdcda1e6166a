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
		Long: `config show prints the effective tool-call configuration that call, probe
and serve use: first the file it was read from and how that file was chosen,
then every setting with its value and its source, one of
  default      the built-in default
  file         the configuration file (an agent configuration's
               model.providers.<api>.tool_call section, a tool_call: mapping,
               or bare settings), named with the key inside it, and with
               --model the entry of the section's models mapping that names
               the model
  environment  a ` + config.EnvPrefix + `<KEY> variable (` + config.EnvVar("max_retries") + `=5)
  flag         a --set KEY=VALUE flag
each overriding the ones before it. The file is the one --config names,
else the one $` + config.EnvFile + ` names, else ` + config.AgentPath + ` in the
working directory, else ` + config.UserFile + ` in the user's configuration
directory (none: every setting keeps its default). A value out of range is
reported with its key and source, as TLP-024.`,
		Example: `  dialect-probe config show
  dialect-probe config show --config .agent/config.yml --json
  dialect-probe config show --model qwen3:8b
  DIALECTKIT_TOOL_CALL_MAX_RETRIES=5 dialect-probe config show --set coerce_types=true`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if api != apiOllama && api != apiOpenAI {
				return fmt.Errorf("--api must be %s or %s, not %q", apiOllama, apiOpenAI, api)
			}
			f, err := configFile(cmd, file)
			if err != nil {
				return err
			}
			_, settings, err := config.ResolveModel(f.Path, api, model, os.LookupEnv, set)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), map[string]any{"file": f, "settings": settings})
			}
			w := cmd.OutOrStdout()
			fmt.Fprintln(w, fileLine(f))
			tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
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
	fl.StringVarP(&file, "config", "c", "", "YAML file with the tool-call settings"+configFlagHelp)
	fl.StringVar(&api, "api", apiOllama, "provider whose section of an agent configuration is read: ollama or openai")
	fl.StringVarP(&model, "model", "m", "", "show the settings of this model: its entry of the section's models mapping applied")
	fl.StringArrayVar(&set, "set", nil, "KEY=VALUE: set a setting, as a flag would (repeatable)")
	fl.BoolVar(&asJSON, "json", false, "print the settings as JSON")
	cmd.AddCommand(show)
	return cmd
}

// fileLine says which configuration file was read and how it was chosen.
func fileLine(f config.File) string {
	switch f.Origin {
	case "":
		looked := config.AgentPath + " here"
		if user, err := config.UserPath(); err == nil {
			looked += ", " + user
		}
		return "file: none (no --config, no $" + config.EnvFile + "; looked for " + looked + ")"
	case config.OriginFlag:
		return "file: " + f.Path + " (--config)"
	case config.OriginEnv:
		return "file: " + f.Path + " ($" + config.EnvFile + ")"
	}
	return "file: " + f.Path + " (found in the " + string(f.Origin) + ")"
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

// configFlagHelp ends the help of every --config flag: where the file is
// looked for when the flag is not given.
const configFlagHelp = " (default: the file $" + config.EnvFile + " names, else " + config.AgentPath +
	" in the working directory, else " + config.UserFile + " in the user's configuration directory; --config '' reads none)"

// configFile is the configuration file a command reads: the one --config
// names (none when it is given empty), else the one config.FindFile finds.
func configFile(cmd *cobra.Command, flag string) (config.File, error) {
	if cmd.Flags().Changed("config") {
		if flag == "" {
			return config.File{}, nil
		}
		return config.File{Path: flag, Origin: config.OriginFlag}, nil
	}
	return config.FindFile(os.LookupEnv)
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
