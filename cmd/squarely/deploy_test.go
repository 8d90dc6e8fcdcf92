package main

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/squarely/squarely/internal/testenv"
)

// No container engine runs here, so the image is checked by its parts:
// every build step of the Dockerfile is a Makefile target (which CI runs),
// and the final image is the static binary alone, run as a user without
// privileges, checked by its own healthcheck command.
func TestDockerfile(t *testing.T) {
	b, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	dockerfile := string(b)
	targets := regexp.MustCompile(`(?m)^RUN make ([\w-]+)$`).FindAllStringSubmatch(dockerfile, -1)
	if len(targets) != 2 {
		t.Fatalf("RUN make steps: %v", targets)
	}
	for _, target := range targets {
		if out, err := exec.Command("make", "-C", "../..", "-n", target[1]).CombinedOutput(); err != nil {
			t.Errorf("make %s: %v\n%s", target[1], err, out)
		}
	}
	final := dockerfile[strings.LastIndex(dockerfile, "\nFROM "):]
	for _, want := range []string{
		"FROM scratch\n", "COPY --from=go /src/bin/squarely-static /squarely\n", "USER 65532:65532\n", "VOLUME /data\n",
		"EXPOSE 8080\n", `CMD ["/squarely", "healthcheck"]`, `ENTRYPOINT ["/squarely"]`,
	} {
		if !strings.Contains(final, want) {
			t.Errorf("the final stage lacks %q", want)
		}
	}
	// The binary the Dockerfile copies is the one static-binary writes.
	out, err := exec.Command("make", "-C", "../..", "-n", "static-binary").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "CGO_ENABLED=0") || !strings.Contains(string(out), "-o bin/squarely-static") {
		t.Errorf("make -n static-binary: %v\n%s", err, out)
	}
}

// The compose file's reverse proxy configuration is one Caddy accepts.
func TestComposeCaddyfile(t *testing.T) {
	cmd := exec.Command(testenv.Command(t, "caddy"), "validate", "--adapter", "caddyfile", "--config", "../../deploy/Caddyfile")
	cmd.Env = append(os.Environ(), "SITE=qr.example.com", "HOME="+t.TempDir(), "XDG_DATA_HOME="+t.TempDir(), "XDG_CONFIG_HOME="+t.TempDir())
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "Valid configuration") {
		t.Errorf("caddy validate: %v\n%s", err, out)
	}
	compose, err := os.ReadFile("../../compose.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"squarely-1: *squarely", "squarely-2: *squarely", "image: postgres:", "DATABASE_URL_FILE:", "SQUARELY_TRUST_PROXY: \"true\"", "./deploy/Caddyfile:/etc/caddy/Caddyfile"} {
		if !strings.Contains(string(compose), want) {
			t.Errorf("compose.yaml lacks %q", want)
		}
	}
}
