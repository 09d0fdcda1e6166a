// Package retry asks a model again when its tool calls fail: it reflects
// each failed call's error back as that call's tool result, keeps the calls
// that succeeded, retries transport failures with backoff on their own
// budget, and treats truncation as truncation. The model is a client.Model
// (package client/ollamaclient or client/openaiclient, or your own); the settings are
// a config.Config.
package retry
