package main

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode"

	"github.com/spf13/cobra"

	"github.com/dialectkit/toolcall/dialects"
	"github.com/dialectkit/toolcall/registry"
)

func newDialectsCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "dialects",
		Short: "List the tool-call dialects dialect-probe knows",
		Long: `dialects lists every registered dialect by its catalogue name, with the
markers that announce it in model output, as they are written there (a marker
that holds a space is shown between backquotes). Use a name with
"parse --dialect".`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			type entry struct {
				Name    string   `json:"name"`
				Markers []string `json:"markers"`
			}
			var list []entry
			for _, name := range registry.Names() {
				d, _ := registry.Lookup(name)
				e := entry{Name: name, Markers: []string{}}
				if m, ok := d.(dialects.Marked); ok && m.Markers() != nil {
					e.Markers = m.Markers()
				}
				list = append(list, e)
			}
			w := cmd.OutOrStdout()
			if asJSON {
				enc := json.NewEncoder(w)
				enc.SetEscapeHTML(false)
				enc.SetIndent("", "  ")
				return enc.Encode(list)
			}
			tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "DIALECT\tMARKERS")
			for _, e := range list {
				markers := "(none: detected by parsing)"
				if len(e.Markers) > 0 {
					markers = markerText(e.Markers)
				}
				fmt.Fprintf(tw, "%s\t%s\n", e.Name, markers)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the list as JSON")
	return cmd
}

// markerText prints markers as they appear in model output, two spaces
// apart. A marker that holds a space is put between backquotes, so that
// where it starts and ends stays visible; one that holds a backquote or a
// character that does not print is Go-quoted.
func markerText(markers []string) string {
	parts := make([]string, len(markers))
	for i, m := range markers {
		switch {
		case m == "" || strings.ContainsRune(m, '`') || strings.IndexFunc(m, notPrintable) >= 0:
			parts[i] = strconv.Quote(m)
		case strings.IndexFunc(m, unicode.IsSpace) >= 0:
			parts[i] = "`" + m + "`"
		default:
			parts[i] = m
		}
	}
	return strings.Join(parts, "  ")
}

func notPrintable(r rune) bool { return !unicode.IsPrint(r) && r != ' ' }
