import { zodResolver } from '@hookform/resolvers/zod'
import { Loader2, Send } from 'lucide-react'
import { useForm } from 'react-hook-form'
import { Button } from '@/components/ui/button'
import { FieldError } from '@/components/ui/field-error'
import { TextField } from '@/components/ui/form-field'
import { Label } from '@/components/ui/label'
import { serverMessage } from '@/lib/api-client'
import { toast } from '@/lib/use-toast'
import { contactSchema, useSendContactMessage, type ContactInput } from '../api/contact'
import { inquiryTypes, SUPPORT_EMAIL } from '../content/contact'
import { showServerFieldErrors } from '@/lib/form-errors'

const empty: ContactInput = { name: '', email: '', subject: '', message: '', inquiryType: 'general' }

const fieldClass =
  'w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-primary aria-[invalid=true]:border-red-500'

export function ContactForm() {
  const send = useSendContactMessage()
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm<ContactInput>({ resolver: zodResolver(contactSchema), defaultValues: empty })

  const onSubmit = handleSubmit((values) =>
    send.mutate(values, {
      onSuccess: () => {
        toast({ title: 'Message Sent!', description: "Thank you for contacting us. We'll get back to you within 24 hours." })
        reset(empty)
      },
      onError: (error) => {
        showServerFieldErrors(error, setError, ['name', 'email', 'inquiryType', 'subject', 'message'])
        // A rule the server enforces (a rate limit, say) is worth showing as it is.
        const detail = serverMessage(error)
        toast({
          title: 'Error',
          description: detail ?? `There was an issue sending your message. Please try again or email us directly at ${SUPPORT_EMAIL}`,
          variant: 'destructive',
        })
      },
    }),
  )

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4" aria-label="Contact form">
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField id="contact-name" label="Name" autoComplete="name" error={errors.name?.message} {...register('name')} />
        <TextField id="contact-email" label="Email" type="email" autoComplete="email" error={errors.email?.message} {...register('email')} />
      </div>
      <div className="grid gap-2">
        <Label htmlFor="contact-inquiry">Inquiry type</Label>
        <select
          id="contact-inquiry"
          className={fieldClass}
          aria-invalid={errors.inquiryType ? true : undefined}
          aria-describedby={errors.inquiryType ? 'contact-inquiry-error' : undefined}
          {...register('inquiryType')}
        >
          {inquiryTypes.map(({ value, label }) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        <FieldError id="contact-inquiry-error">{errors.inquiryType?.message}</FieldError>
      </div>
      <TextField id="contact-subject" label="Subject" error={errors.subject?.message} {...register('subject')} />
      <div className="grid gap-2">
        <Label htmlFor="contact-message">Message</Label>
        <textarea
          id="contact-message"
          rows={6}
          className={fieldClass}
          aria-invalid={errors.message ? true : undefined}
          aria-describedby={errors.message ? 'contact-message-error' : undefined}
          {...register('message')}
        />
        <FieldError id="contact-message-error">{errors.message?.message}</FieldError>
      </div>
      <Button type="submit" size="lg" disabled={send.isPending}>
        {send.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Send aria-hidden="true" />}
        {send.isPending ? 'Sending...' : 'Send Message'}
      </Button>
    </form>
  )
}
