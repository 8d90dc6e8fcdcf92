// Package qrcli implements `squarely qr`: it writes one styled QR code as
// PNG, SVG or PDF from text given on the command line or standard input, or
// from a typed payload (the generator's types, through internal/payload).
package qrcli

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/squarely/squarely/internal/payload"
	"github.com/squarely/squarely/internal/qr"
	"github.com/squarely/squarely/internal/render"
)

const usage = `Usage: squarely qr [flags] TEXT
       squarely qr [flags] -            (encode standard input)
       squarely qr [flags] --type T --field key=value ...

Writes a QR code for TEXT, byte for byte, or for a typed payload built from
fields (the generator's types plus text and wifi; e.g. --type wifi
--field ssid=Home --field password=secret). Flags go before TEXT; use --
before a TEXT that starts with '-'.

Output:
  -o FILE               output file, '-' for standard output
                        (default qr.png, qr.svg or qr.pdf by format)
  --format F            png, svg or pdf (default: from FILE's extension, else png)
  --size N              width in pixels (png, svg) or points (pdf) of the code
                        with its quiet zone (default %[2]d px, %.0[3]f mm)
  --ecc L|M|Q|H         error correction level (default M; a logo needs H,
                        which is then used)

Payload:
  --type T              build a typed payload; T is one of
                        %[1]s
  --field key=value     a field of the type (repeatable)
  --base-url URL        the product's address, for payment, pdf and images
  --product-id ID       the product a payment code opens

Style (colours are #RRGGBB):
  --fg, --bg            dot and background colours (default %[4]s, %[5]s)
  --gradient COLOUR     second colour: dots fade from --fg to it
  --gradient-type S     linear (default) or radial (--fg at the centre)
  --gradient-angle N    linear direction, 0-359 degrees clockwise from the
                        top as in CSS (default 135: top-left to bottom-right)
  --gradient-on-eyes    eyes without their own colour take the gradient too
  --dots S              square, circle, rounded, dots, classy,
                        classy-rounded or extra-rounded
  --eyes S              finder ring: square, curve-square, circle,
                        extra-rounded or dot
  --eye-centers S       finder centre: as --eyes
  --eye-color, --eye-center-color COLOUR   (default: --fg, or the gradient
                        with --gradient-on-eyes)
  --logo FILE           centred logo image (PNG, JPEG, GIF or WebP)
  --logo-size S         small, medium or large
  --frame               draw a frame with a text band (default text '%[6]s');
                        any --frame-* flag implies it
  --frame-text TEXT, --frame-color COLOUR, --frame-text-color COLOUR
  --frame-style S       rounded or square

Exit status: 0 written, 1 refused (invalid fields, too much data, a style that
would not scan, an unwritable file), 2 bad usage.
`

// usageError is a mistake on the command line: exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }

// command is a parsed command line.
type command struct {
	out, format string
	size        int
	level       qr.Level
	style       render.Style
	logoFile    string

	text    string // TEXT, "-" for standard input; unused with typ
	typ     string
	fields  payload.Fields
	options payload.Options
}

// Run runs `squarely qr` with args (after "qr") and returns the exit status.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c, err := parse(args)
	if errors.Is(err, flag.ErrHelp) {
		printUsage(stdout)
		return 0
	}
	if err == nil {
		err = c.run(stdin, stdout)
	}
	var ue usageError
	var fe payload.FieldErrors
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "squarely qr: %v\n\n", err)
		printUsage(stderr)
		return 2
	case errors.As(err, &fe):
		fmt.Fprintf(stderr, "squarely qr: invalid %s fields:\n", c.typ)
		for _, k := range payload.FieldNames(c.typ) {
			if msg, ok := fe[k]; ok {
				fmt.Fprintf(stderr, "  %s: %s\n", k, msg)
			}
		}
		return 1
	default:
		fmt.Fprintf(stderr, "squarely qr: %v\n", err)
		return 1
	}
}

func printUsage(w io.Writer) {
	fmt.Fprintf(w, usage, strings.Join(payload.Types(), ", "), render.DefaultPixels, render.DefaultPoints*25.4/72,
		render.DefaultForeground, render.DefaultBackground, render.DefaultFrameText)
}

// parse reads the command line; every error it returns is a usage error.
func parse(args []string) (*command, error) {
	c := &command{level: qr.M, fields: payload.Fields{}}
	var frame bool
	fs := flag.NewFlagSet("squarely qr", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // Run prints errors and usage itself
	fs.StringVar(&c.out, "o", "", "")
	fs.Func("format", "", func(v string) error {
		if !slices.Contains(formats, v) {
			return errors.New("want png, svg or pdf")
		}
		c.format = v
		return nil
	})
	fs.Func("size", "", func(v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			return errors.New("want a positive whole number")
		}
		c.size = n
		return nil
	})
	fs.Func("ecc", "", func(v string) error {
		l, ok := qr.ParseLevel(v)
		if !ok {
			return errors.New("want L, M, Q or H")
		}
		c.level = l
		return nil
	})
	fs.StringVar(&c.typ, "type", "", "")
	fs.Func("field", "", func(v string) error {
		k, val, ok := strings.Cut(v, "=")
		if !ok || k == "" {
			return errors.New("want key=value")
		}
		if _, dup := c.fields[k]; dup {
			return fmt.Errorf("%s given twice", k)
		}
		c.fields[k] = val
		return nil
	})
	fs.StringVar(&c.options.BaseURL, "base-url", "", "")
	fs.StringVar(&c.options.ProductID, "product-id", "", "")

	s := &c.style
	colorVar(fs, &s.Foreground, "fg")
	colorVar(fs, &s.Background, "bg")
	colorVar(fs, &s.Gradient, "gradient")
	choiceVar(fs, &s.GradientType, "gradient-type", render.GradientTypes...)
	fs.Func("gradient-angle", "", func(v string) error {
		a, err := strconv.Atoi(v)
		if err != nil || a < 0 || a > 359 {
			return errors.New("want a whole number of degrees from 0 to 359")
		}
		s.GradientAngle = &a
		return nil
	})
	fs.BoolVar(&s.GradientOnEyes, "gradient-on-eyes", false, "")
	choiceVar(fs, &s.Dots, "dots", render.DotShapes...)
	choiceVar(fs, &s.Eyes, "eyes", render.EyeShapes...)
	choiceVar(fs, &s.EyeCenters, "eye-centers", render.EyeShapes...)
	colorVar(fs, &s.EyeColor, "eye-color")
	colorVar(fs, &s.EyeCenterColor, "eye-center-color")
	fs.StringVar(&c.logoFile, "logo", "", "")
	choiceVar(fs, &s.LogoSize, "logo-size", render.LogoSmall, render.LogoMedium, render.LogoLarge)
	fs.BoolVar(&frame, "frame", false, "")
	fs.StringVar(&s.Frame.Text, "frame-text", "", "")
	colorVar(fs, &s.Frame.Color, "frame-color")
	colorVar(fs, &s.Frame.TextColor, "frame-text-color")
	choiceVar(fs, &s.Frame.Style, "frame-style", render.FrameRounded, render.FrameSquare)

	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, usageError{err.Error()}
	}
	fs.Visit(func(f *flag.Flag) {
		if strings.HasPrefix(f.Name, "frame-") {
			frame = true
		}
	})
	s.Frame.Enabled = frame

	rest := fs.Args()
	switch {
	case c.typ != "" && len(rest) > 0:
		return nil, usagef("give either TEXT or --type, not both")
	case c.typ != "":
		if !payload.Known(c.typ) {
			return nil, usagef("unknown --type %q", c.typ)
		}
		names := payload.FieldNames(c.typ)
		for k := range c.fields {
			if !slices.Contains(names, k) {
				return nil, usagef("--type %s has no field %q (fields: %s)", c.typ, k, strings.Join(names, ", "))
			}
		}
	case len(c.fields) > 0:
		return nil, usagef("--field needs --type")
	case len(rest) == 0:
		return nil, usagef("missing TEXT")
	case len(rest) > 1:
		return nil, usagef("unexpected argument %q after TEXT (flags go before TEXT; quote a TEXT with spaces)", rest[1])
	default:
		c.text = rest[0]
	}

	if c.format == "" {
		f, err := formatOf(c.out)
		if err != nil {
			return nil, err
		}
		c.format = f
	}
	if c.out == "" {
		c.out = "qr." + c.format
	}
	return c, nil
}

var formats = []string{"png", "svg", "pdf"}

// formatOf picks the format from the output file's extension: png when
// there is none (or for standard output), a usage error when it names
// another format.
func formatOf(out string) (string, error) {
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(out), "."))
	switch {
	case out == "-" || ext == "":
		return "png", nil
	case slices.Contains(formats, ext):
		return ext, nil
	}
	return "", usagef("cannot tell the format of %q: use --format png, svg or pdf", out)
}

// colorVar defines a colour flag, checked with the renderer's parser.
func colorVar(fs *flag.FlagSet, p *string, name string) {
	fs.Func(name, "", func(v string) error {
		if _, err := render.ParseColor(v); err != nil {
			return errors.New("want a colour like #1A2B3C")
		}
		*p = v
		return nil
	})
}

// choiceVar defines a flag that takes one of choices.
func choiceVar(fs *flag.FlagSet, p *string, name string, choices ...string) {
	fs.Func(name, "", func(v string) error {
		if !slices.Contains(choices, v) {
			return fmt.Errorf("want %s", strings.Join(choices, ", "))
		}
		*p = v
		return nil
	})
}

// run encodes, renders and writes the code. The image is rendered in
// memory first so that a refusal never leaves a partial file behind.
func (c *command) run(stdin io.Reader, stdout io.Writer) error {
	data, err := c.data(stdin)
	if err != nil {
		return err
	}
	if c.logoFile != "" {
		if c.style.Logo, err = os.ReadFile(c.logoFile); err != nil {
			return err
		}
	}
	if c.format == "pdf" {
		c.style.Points = float64(c.size)
	} else {
		c.style.Pixels = c.size
	}
	// The version the server picks for the same style: a logo's code skips
	// the versions with an alignment pattern where the logo goes.
	m, err := render.Encode(data, c.level, c.style)
	if err != nil {
		return err
	}
	scene, err := render.Layout(m, c.style)
	var se *render.StyleError
	if errors.As(err, &se) && se.Field == "size" {
		return usagef("--size: %s", se.Message)
	}
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	switch c.format {
	case "svg":
		err = scene.WriteSVG(&buf)
	case "pdf":
		err = scene.WritePDF(&buf)
	default:
		err = scene.WritePNG(&buf)
	}
	if err != nil {
		return err
	}
	if c.out == "-" {
		_, err = stdout.Write(buf.Bytes())
		return err
	}
	return os.WriteFile(c.out, buf.Bytes(), 0o644)
}

// data returns the bytes to encode: TEXT, standard input, or the typed
// payload.
func (c *command) data(stdin io.Reader) ([]byte, error) {
	switch {
	case c.typ != "":
		s, err := payload.Build(c.typ, c.fields, c.options)
		switch {
		case errors.Is(err, payload.ErrNoBaseURL):
			return nil, usagef("--type %s needs --base-url", c.typ)
		case errors.Is(err, payload.ErrNoProductID):
			return nil, usagef("--type %s needs --product-id", c.typ)
		}
		return []byte(s), err
	case c.text == "-":
		return io.ReadAll(stdin)
	}
	return []byte(c.text), nil
}
