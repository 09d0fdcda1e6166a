package fakeserver

import (
	"cmp"
	"encoding/json"
	"io"
	"net/http"
	"slices"
)

// ModelInfo is what the server tells about a model: Ollama's /api/show,
// and llama.cpp's /props (chat_template) on the OpenAI side.
type ModelInfo struct {
	// Template is the chat template (Ollama Go template, or Jinja for
	// /props).
	Template string `json:"template,omitempty"`
	// Capabilities are Ollama's ("completion", "tools", "thinking", …).
	Capabilities []string `json:"capabilities,omitempty"`
	// Family is details.family.
	Family string `json:"family,omitempty"`
	// Parameters are the Modelfile parameters, "key value" per line.
	Parameters string `json:"parameters,omitempty"`
	// Parser and Renderer name Ollama's built-in parser and renderer.
	Parser   string `json:"parser,omitempty"`
	Renderer string `json:"renderer,omitempty"`
}

// info returns what the server knows of model, and whether it serves it.
func (h *Handler) info(model string) (ModelInfo, bool) {
	if len(h.opts.Models) > 0 && !slices.Contains(h.opts.Models, model) {
		return ModelInfo{}, false
	}
	if i, ok := h.opts.Info[model]; ok {
		return i, true
	}
	return ModelInfo{Capabilities: []string{"completion", "tools"}}, true
}

// ollamaShow answers POST /api/show as Ollama does: 404 for a model it
// does not have, otherwise the template, capabilities, details and
// parameters.
func (h *Handler) ollamaShow(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Model string `json:"model"`
		Name  string `json:"name"`
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, maxRequestBytes))
	if err := json.Unmarshal(body, &req); err != nil {
		writeError(w, Ollama, http.StatusBadRequest, "invalid request body: "+err.Error())
		return
	}
	model := cmp.Or(req.Model, req.Name)
	if model == "" {
		writeError(w, Ollama, http.StatusBadRequest, "model is required")
		return
	}
	info, ok := h.info(model)
	if !ok {
		writeError(w, Ollama, http.StatusNotFound, "model '"+model+"' not found")
		return
	}
	family := cmp.Or(info.Family, "fake")
	capabilities := info.Capabilities
	if capabilities == nil {
		capabilities = []string{"completion"}
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"template":     info.Template,
		"parameters":   info.Parameters,
		"parser":       info.Parser,
		"renderer":     info.Renderer,
		"capabilities": capabilities,
		"details": map[string]any{
			"format": "gguf", "family": family, "families": []string{family},
			"parameter_size": "8B", "quantization_level": "Q4_K_M",
		},
		"model_info":  map[string]any{"general.architecture": family},
		"modified_at": createdAt(),
	})
}

// llamaProps answers GET /props as llama.cpp's server does, with the chat
// template of the first model it serves.
func (h *Handler) llamaProps(w http.ResponseWriter) {
	var info ModelInfo
	if len(h.opts.Models) > 0 {
		info, _ = h.info(h.opts.Models[0])
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"chat_template": info.Template,
		"total_slots":   1,
		"default_generation_settings": map[string]any{
			"n_ctx": 8192,
		},
	})
}
