// GS1 Digital Link (issue 38): GS1's rules for the generator's fields. The
// Products page is routed by app/routes.tsx.
export { checkDigit, cset82Problem, dateProblem, gtinFeedback, gtinProblem } from './lib/gs1-rules'
