// GS1 Digital Link (issue 38): GS1's rules for the generator's fields. The
// Products page is routed by app/routes.tsx.
export { checkDigit, cset82Problem, dateProblem, gtinFeedback, gtinProblem } from './lib/gs1-rules'
// The GS1 scans by GTIN and lot, for the Analytics Dashboard.
export { Gs1ScanTable, useHasGs1Scans } from './components/scan-table'
