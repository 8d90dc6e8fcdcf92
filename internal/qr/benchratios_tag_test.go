//go:build benchratios

package qr

// Building the tests with -tags benchratios also runs TestBenchRatios.
func init() { benchRatiosTag = true }
