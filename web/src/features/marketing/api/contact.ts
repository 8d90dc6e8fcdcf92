import { useMutation } from '@tanstack/react-query'
import { z } from 'zod'
import { apiRequest } from '@/lib/api-client'
import { inquiryTypes } from '../content/contact'

/** The contact form's rules, with spec 02 §5's messages; the server checks the same. */
export const contactSchema = z.object({
  name: z.string().trim().min(2, 'Name must be at least 2 characters'),
  email: z.string().trim().pipe(z.email('Please enter a valid email address')),
  subject: z.string().trim().min(5, 'Subject must be at least 5 characters'),
  message: z.string().trim().min(10, 'Message must be at least 10 characters'),
  inquiryType: z.enum(inquiryTypes.map((t) => t.value) as [string, ...string[]]),
})

export type ContactInput = z.infer<typeof contactSchema>

export async function sendContactMessage(input: ContactInput) {
  await apiRequest('POST', '/api/contact', input)
}

export function useSendContactMessage() {
  return useMutation({ mutationFn: sendContactMessage })
}
