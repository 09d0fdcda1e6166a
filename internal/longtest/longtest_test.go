package longtest

import "testing"

func TestEnabled(t *testing.T) {
	t.Setenv(Env, "1")
	if !Enabled() {
		t.Fatal("Enabled() = false with DIALECTKIT_LONG=1")
	}
	t.Setenv(Env, "")
	if Enabled() {
		t.Fatal("Enabled() = true with DIALECTKIT_LONG unset")
	}
}
