package lenient

import (
	"bufio"
	"os"
	"strconv"
	"testing"
)

func TestZZProbe(t *testing.T) {
	f, err := os.Open("/tmp/probe.txt")
	if err != nil {
		t.Skip()
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		in, err := strconv.Unquote(sc.Text())
		if err != nil {
			t.Logf("bad line %s", sc.Text())
			continue
		}
		r := RepairString(in, nil)
		t.Logf("%q\n\t=> %s  err=%v reps=%v", in, r.Output, r.Err, r.Repairs)
	}
}
