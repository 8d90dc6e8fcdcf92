package testenv

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/hex"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

//go:embed opencv_qr.py
var openCVScript []byte

// OpenCVPython is a python3 that can import cv2: the one on PATH, else
// Debian's (python3-opencv installs there, and a pyenv shim may come
// first on PATH); "" when neither can.
func OpenCVPython() string {
	for _, p := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(p, "-c", "import cv2").Run() == nil {
			return p
		}
	}
	return ""
}

// OpenCVRead is what OpenCV made of one image file: the decoded text's
// bytes (nil when nothing decoded it), and whether cv2.QRCodeDetector
// located a code (opencv_qr.py says why Debian's build locates codes its
// QRCodeDetector cannot decode).
type OpenCVRead struct {
	Text  []byte
	Found bool
}

// ReadWithOpenCV reads image files with OpenCV through python (from
// OpenCVPython), in one process: its start-up is most of the cost.
func ReadWithOpenCV(python string, files ...string) (map[string]OpenCVRead, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, python, append([]string{"-"}, files...)...)
	cmd.Stdin = bytes.NewReader(openCVScript)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("OpenCV: %v: %.200s", err, stderr.Bytes())
	}
	res := make(map[string]OpenCVRead, len(files))
	for line := range strings.Lines(string(out)) {
		f := strings.Split(strings.TrimSuffix(line, "\n"), "\t")
		if len(f) != 3 {
			continue
		}
		text, err := hex.DecodeString(f[1])
		if err != nil || len(text) == 0 {
			text = nil
		}
		res[f[0]] = OpenCVRead{Text: text, Found: f[2] == "1"}
	}
	return res, nil
}
