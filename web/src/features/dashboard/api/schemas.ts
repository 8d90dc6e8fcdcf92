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
