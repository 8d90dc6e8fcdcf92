import { z } from 'zod'

/** Edit dynamic destination (spec 01 §5); only web addresses, as the server requires. */
export const destinationSchema = z.object({
  destination: z
    .string()
    .trim()
    .min(1, { error: 'URL is required' })
    .pipe(z.url({ protocol: /^https?$/, error: 'Please enter a valid URL' })),
})

export type DestinationInput = z.infer<typeof destinationSchema>

/** A code's password: what the server accepts (6 characters to the 72 bytes bcrypt reads). */
export const codePasswordSchema = z.object({
  password: z
    .string()
    .min(6, { error: 'Password must be at least 6 characters' })
    .refine((password) => new TextEncoder().encode(password).length <= 72, { error: 'Password must be at most 72 bytes' }),
})

export type CodePasswordInput = z.infer<typeof codePasswordSchema>
