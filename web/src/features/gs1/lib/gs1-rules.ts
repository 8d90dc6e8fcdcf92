/**
 * GS1's rules for the generator's GS1 Digital Link fields, word for word as
 * the server gives them (internal/gs1). The server checks them again.
 */

export const msgGtinRequired = 'AI (01): A GTIN is required.'
export const msgGtinLength = 'AI (01): A GTIN has 8, 12, 13 or 14 digits.'
export const msgGtinDigit = 'AI (01): A non-digit character was found where a digit is expected.'
export const msgGtinCheckDigit = 'AI (01): The numeric check digit is incorrect.'

/** The GS1 mod-10 check digit of digits (a GTIN without its last digit): weights 3, 1, 3, … from the right. */
export function checkDigit(digits: string): string {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    const d = Number(digits[digits.length - 1 - i])
    sum += i % 2 === 0 ? 3 * d : d
  }
  return String((10 - (sum % 10)) % 10)
}

/** Why s is not a GTIN, or undefined for a GTIN of 8, 12, 13 or 14 digits with the right check digit. */
export function gtinProblem(s: string): string | undefined {
  if (s === '') return msgGtinRequired
  if (!/^[0-9]+$/.test(s)) return msgGtinDigit
  if (![8, 12, 13, 14].includes(s.length)) return msgGtinLength
  if (checkDigit(s.slice(0, -1)) !== s.slice(-1)) return msgGtinCheckDigit
  return undefined
}

/** Live feedback while a GTIN is typed: the check digit it needs once it has a GTIN's length. */
export function gtinFeedback(s: string): { ok: boolean; text: string } | undefined {
  const v = s.trim()
  if (v === '' || !/^[0-9]+$/.test(v) || ![8, 12, 13, 14].includes(v.length)) return undefined
  const want = checkDigit(v.slice(0, -1))
  return want === v.slice(-1)
    ? { ok: true, text: `Check digit ${want} is correct (GTIN-${v.length})` }
    : { ok: false, text: `The check digit should be ${want}, not ${v.slice(-1)}` }
}

// GS1 AI encodable character set 82 (GS1 General Specifications Figure 7.11-1).
const cset82 = /^[!"%&'()*+,\-./0-9:;<=>?A-Z_a-z]*$/

/** Why v is not an alphanumeric AI value of at most 20 characters, or undefined (blank is allowed). */
export function cset82Problem(ai: string, v: string): string | undefined {
  if (v === '') return undefined
  if (!cset82.test(v)) return `AI (${ai}): A non-CSET 82 character was found where a CSET 82 character is expected.`
  if (v.length > 20) return `AI (${ai}): The component is longer than the maximum length (20) permitted by the GS1 AI syntax.`
  return undefined
}

/** Why v is not a YYMMDD date (DD 00 allowed when dayZero), or undefined (blank is allowed). */
export function dateProblem(ai: string, v: string, dayZero: boolean): string | undefined {
  if (v === '') return undefined
  if (!/^[0-9]*$/.test(v)) return `AI (${ai}): A non-digit character was found where a digit is expected.`
  if (v.length < 6) return `AI (${ai}): The component is shorter than the minimum length (6) permitted by the GS1 AI syntax.`
  if (v.length > 6) return `AI (${ai}): The component is longer than the maximum length (6) permitted by the GS1 AI syntax.`
  const yy = Number(v.slice(0, 2))
  const mm = Number(v.slice(2, 4))
  const dd = Number(v.slice(4, 6))
  if (mm < 1 || mm > 12) return `AI (${ai}): The date contains an illegal month of the year.`
  if (dd === 0 && dayZero) return undefined
  const days = [31, yy % 4 === 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mm - 1]
  if (dd < 1 || dd > days) return `AI (${ai}): The date contains an illegal day of the month.`
  return undefined
}
