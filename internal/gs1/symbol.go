package gs1

import "fmt"

// Print rules for a QR code carrying a GS1 Digital Link URI on a consumer
// unit scanned at a general retail point of sale: GS1 General
// Specifications, §5.12.3.1, Symbol specification table 1 ("Trade items
// scanned in general retail POS and not general distribution"): X-dimension
// (module width) minimum 0.375 mm, maximum 0.990 mm; quiet zone 4X on every
// side; print quality 1.5/06/660 (ISO/IEC 15415). §5.7.3 asks for error
// correction level M or higher for QR Code in the GS1 system.
//
// The range is the one GS1 Norway's barcode guide gives for 2D symbols on
// consumer units (0.375-0.990 mm). GS1 UK's sizing guidance for QR codes
// at the point of sale quotes 0.396 mm from the same section; the table
// itself could not be read here, so the verdict keeps the lower figure and
// the target (0.625 mm) is not confirmed against GS1's text either.
const (
	MinXDimensionMm    = 0.375
	TargetXDimensionMm = 0.625
	MaxXDimensionMm    = 0.990
	QuietZoneModules   = 4
)

// Symbol is what the GS1 verdict looks at in a laid-out code.
type Symbol struct {
	XDimensionMm float64 // one module's printed width
	QuietZone    int     // modules of quiet zone on each side
	Logo         bool    // a logo covers modules
	Level        string  // error correction: "L", "M", "Q" or "H"
}

// Verdict is the GS1 check of a symbol.
type Verdict struct {
	OK           bool     `json:"ok"`
	XDimensionMm float64  `json:"xDimensionMm"`
	Problems     []string `json:"problems"`
}

// Check applies GS1's consumer-unit rules to s.
func Check(s Symbol) Verdict {
	v := Verdict{XDimensionMm: s.XDimensionMm, Problems: []string{}}
	if s.XDimensionMm < MinXDimensionMm {
		v.Problems = append(v.Problems, fmt.Sprintf("The X-dimension is %g mm, under the %g mm minimum GS1 sets for QR codes on consumer units scanned at the point of sale (target %g mm)",
			s.XDimensionMm, MinXDimensionMm, TargetXDimensionMm))
	}
	if s.XDimensionMm > MaxXDimensionMm {
		v.Problems = append(v.Problems, fmt.Sprintf("The X-dimension is %g mm, over the %g mm maximum GS1 sets for QR codes on consumer units scanned at the point of sale (target %g mm)",
			s.XDimensionMm, MaxXDimensionMm, TargetXDimensionMm))
	}
	if s.QuietZone < QuietZoneModules {
		v.Problems = append(v.Problems, fmt.Sprintf("The quiet zone is %d modules wide; GS1 requires %d on every side", s.QuietZone, QuietZoneModules))
	}
	if s.Logo {
		v.Problems = append(v.Problems, "A logo covers modules of the symbol; GS1 does not allow graphics over a QR code scanned at the point of sale")
	}
	if s.Level == "L" {
		v.Problems = append(v.Problems, "Error correction is L; GS1 requires level M or higher")
	}
	v.OK = len(v.Problems) == 0
	return v
}
