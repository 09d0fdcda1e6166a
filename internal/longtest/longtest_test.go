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

func TestScaled(t *testing.T) {
	t.Setenv(Env, "1")
	if got := Scaled(100_000); got != 100_000 {
		t.Errorf("long: Scaled(100000) = %d", got)
	}
	t.Setenv(Env, "")
	if got := Scaled(100_000); got != 10_000 {
		t.Errorf("default: Scaled(100000) = %d", got)
	}
	if got := Scaled(5); got != 1 {
		t.Errorf("default: Scaled(5) = %d", got)
	}
}
