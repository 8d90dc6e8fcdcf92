package codes

import (
	"fmt"
	"math"

	"github.com/squarely/squarely/internal/gs1"
	"github.com/squarely/squarely/internal/qr"
	"github.com/squarely/squarely/internal/render"
)

// Print rules of thumb (docs/API.md "Print preflight").
const (
	// ReadRatio: a code is read from up to about ten times its width.
	ReadRatio = 10
	// MinModuleMm is the smallest module offset print and phone cameras
	// resolve reliably; a logo (fewer modules left to correct with) or
	// contrast under GoodContrast asks for LogoModuleFactor /
	// ContrastModuleFactor more each.
	MinModuleMm          = 0.4
	LogoModuleFactor     = 1.25
	ContrastModuleFactor = 1.25
	GoodContrast         = 7.0
	MaxDistanceCm        = 10000 // 100 m
)

// Preflight is what a print size means for a code.
type Preflight struct {
	OK            bool     `json:"ok"`
	Modules       int      `json:"modules"`       // across, quiet zone included
	ModuleMm      float64  `json:"moduleMm"`      // one module's printed width
	MinModuleMm   float64  `json:"minModuleMm"`   // the smallest this code should have
	MaxDistanceCm float64  `json:"maxDistanceCm"` // the farthest it scans from at sizeMm
	MinSizeMm     float64  `json:"minSizeMm"`     // the smallest print for distanceCm and the module minimum
	Warnings      []string `json:"warnings"`
	// GS1 is the verdict of GS1's rules for consumer units, for a gs1
	// code only (GS1Verdict).
	GS1 *gs1.Verdict `json:"gs1,omitempty"`
}

// GS1Verdict checks a code measured by CheckPreflight at sizeMm against
// GS1's rules for QR codes on consumer units (gs1.Check): the
// X-dimension, the quiet zone (render.QuietZone modules), no logo, and
// error correction M or higher.
func GS1Verdict(pf Preflight, sizeMm float64, logo bool, level qr.Level) gs1.Verdict {
	return gs1.Check(gs1.Symbol{
		XDimensionMm: math.Round(sizeMm/float64(pf.Modules)*1000) / 1000,
		QuietZone:    render.QuietZone,
		Logo:         logo,
		Level:        level.String(),
	})
}

// CheckPreflight lays the code out as Write would (so a style it refuses is
// refused here the same way) and measures it at sizeMm for a reader
// distanceCm away (0: no distance given).
func CheckPreflight(data string, s Style, opt Options, sizeMm, distanceCm float64) (Preflight, error) {
	if !(sizeMm >= MinSizeMm && sizeMm <= MaxSizeMm) {
		return Preflight{}, &render.StyleError{Field: "sizeMm", Message: fmt.Sprintf("sizeMm must be between %d and %d", MinSizeMm, MaxSizeMm)}
	}
	if !(distanceCm >= 0 && distanceCm <= MaxDistanceCm) {
		return Preflight{}, &render.StyleError{Field: "distanceCm", Message: fmt.Sprintf("distanceCm must be between 0 (none) and %d", MaxDistanceCm)}
	}
	opt.Format, opt.Print = SVG, Print{}
	sc, err := layout(data, s, opt)
	if err != nil {
		return Preflight{}, err
	}
	p := Preflight{Modules: sc.Modules(), Warnings: []string{}}
	p.ModuleMm = round2(sizeMm / float64(p.Modules))
	p.MinModuleMm = MinModuleMm
	if len(opt.Logo) > 0 {
		p.MinModuleMm *= LogoModuleFactor
	}
	if lowestContrast(s) < GoodContrast {
		p.MinModuleMm *= ContrastModuleFactor
	}
	p.MinModuleMm = round2(p.MinModuleMm)
	p.MaxDistanceCm = round2(sizeMm * ReadRatio / 10)
	p.MinSizeMm = math.Ceil(max(p.MinModuleMm*float64(p.Modules), distanceCm*10/ReadRatio))
	if distanceCm > p.MaxDistanceCm {
		p.Warnings = append(p.Warnings, fmt.Sprintf("At %g mm this code scans from up to %g cm; to be read at %s, print it at least %g mm wide",
			sizeMm, p.MaxDistanceCm, distanceText(distanceCm), p.MinSizeMm))
	}
	if p.ModuleMm < p.MinModuleMm {
		p.Warnings = append(p.Warnings, fmt.Sprintf("At %g mm each module is %g mm, under the %g mm this code needs in print; print it at least %g mm wide",
			sizeMm, p.ModuleMm, p.MinModuleMm, p.MinSizeMm))
	}
	p.OK = len(p.Warnings) == 0
	return p, nil
}

// lowestContrast is the weakest contrast of the code's colours (dots,
// gradient end, eyes) against the background. Normalize has filled them.
func lowestContrast(s Style) float64 {
	bg, err := render.ParseColor(s.BgColor)
	if err != nil {
		return 1
	}
	lowest := math.Inf(1)
	for _, v := range []string{s.FgColor, s.GradientColor, s.OuterCornerColor, s.InnerCornerColor} {
		if c, err := render.ParseColor(v); err == nil {
			lowest = min(lowest, render.Contrast(c, bg))
		}
	}
	return lowest
}

// distanceText is a distance as people say it: "80 cm", "2 m".
func distanceText(cm float64) string {
	if cm >= 100 {
		return fmt.Sprintf("%g m", round2(cm/100))
	}
	return fmt.Sprintf("%g cm", cm)
}

func round2(v float64) float64 { return math.Round(v*100) / 100 }
