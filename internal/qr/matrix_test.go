package qr

import (
	"slices"
	"testing"
)

func TestAppendDarkRunsMatchesDark(t *testing.T) {
	for _, v := range []int{1, 7, 40} {
		m, err := Encode([]byte("runs"), Options{Level: M, Version: v})
		if err != nil {
			t.Fatal(err)
		}
		var runs []int
		for y := range m.Size {
			runs = m.AppendDarkRuns(runs[:0], y)
			prev := -1
			for i := 0; i < len(runs); i += 2 {
				if runs[i] <= prev || runs[i] >= runs[i+1] {
					t.Fatalf("v%d row %d: runs %v not ordered and separate", v, y, runs)
				}
				prev = runs[i+1]
			}
			for x := range m.Size {
				in := false
				for i := 0; i < len(runs); i += 2 {
					in = in || (runs[i] <= x && x < runs[i+1])
				}
				if in != m.Dark(x, y) {
					t.Fatalf("v%d (%d,%d): in a run %v, dark %v", v, x, y, in, m.Dark(x, y))
				}
			}
		}
		if got := m.AppendDarkRuns([]int{7}, m.Size); !slices.Equal(got, []int{7}) {
			t.Errorf("row out of range appended %v", got)
		}
	}
}

func TestAlignmentCentersMatchTheMatrix(t *testing.T) {
	if AlignmentCenters(0) != nil || AlignmentCenters(41) != nil || AlignmentCenters(1) != nil {
		t.Error("versions 0, 41 and 1 have alignment centres")
	}
	for v := 2; v <= 40; v++ {
		m, err := Encode([]byte("a"), Options{Version: v})
		if err != nil {
			t.Fatal(err)
		}
		for _, cy := range AlignmentCenters(v) {
			for _, cx := range AlignmentCenters(v) {
				finder := (cx < 9 && cy < 9) || (cx < 9 && cy > m.Size-9) || (cx > m.Size-9 && cy < 9)
				if got := m.Role(cx, cy) == RoleAlignment; got == finder {
					t.Fatalf("v%d (%d,%d): alignment %v", v, cx, cy, got)
				}
			}
		}
	}
}
