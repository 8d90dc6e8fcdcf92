import { FileText, ImageIcon, Loader2, Upload } from 'lucide-react'
import { useId, useRef, useState } from 'react'
import { useWatch, type UseFormReturn } from 'react-hook-form'
import { Button } from '@/components/ui/button'
import { FieldError } from '@/components/ui/field-error'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { Textarea } from '@/components/ui/textarea'
import { cn } from '@/lib/utils'
import { useUser } from '@/lib/auth'
import { useVerifiedDomains } from '@/lib/verified-domains'
import { gtinFeedback } from '@/features/gs1'
import { toast } from '@/lib/use-toast'
import { uploadDocument, type UploadAnswer } from '../api/generator-api'
import { typeFields, type FieldConfig } from '../lib/field-config'
import type { QrType } from '@/lib/qr-types'
import { isRequiredField, parsePrice, type TypeValues } from '../lib/schemas'

const selectClass =
  'flex h-10 w-full cursor-pointer rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus-visible:border-primary focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-primary/30 aria-invalid:border-red-500'

/**
 * An uploaded pdf or image of the form: its id is the form field, the rest is
 * shown. The file and the title and description sent with it are kept so that
 * Generate can send it again when they have changed since (see useCodeActions).
 */
export type UploadedFile = UploadAnswer & { kind: 'pdf' | 'image'; file: File; title: string; description: string }

interface TypeFieldsProps {
  type: QrType
  form: UseFormReturn<TypeValues>
  uploaded: UploadedFile | null
  onUploaded: (file: UploadedFile) => void
  onUrlBlur?: () => void
}

/** The chosen type's fields, with asterisks on the required ones and the schema's messages. */
export function TypeFields({ type, form, uploaded, onUploaded, onUrlBlur }: TypeFieldsProps) {
  const id = useId()
  const values = useWatch({ control: form.control })
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {typeFields[type].map((field) => {
        if (field.shownWhen && !field.shownWhen(values as TypeValues)) return null
        const fieldId = `${id}-${field.name}`
        const errorId = `${fieldId}-error`
        const message = form.formState.errors[field.name]?.message
        return (
          <div key={field.name} className={cn('grid content-start gap-1.5', !field.half && 'sm:col-span-2')}>
            {field.kind !== 'checkbox' && (
              <Label htmlFor={fieldId}>
                {field.label}
                {isRequiredField(type, field.name) && (
                  <span className="ml-0.5 text-red-600" aria-hidden="true">
                    *
                  </span>
                )}
              </Label>
            )}
            <FieldInput
              field={field}
              fieldId={fieldId}
              errorId={errorId}
              invalid={Boolean(message)}
              value={values[field.name]}
              form={form}
              uploaded={uploaded}
              onUploaded={onUploaded}
              onUrlBlur={field.name === 'url' ? onUrlBlur : undefined}
            />
            <FieldError id={errorId}>{typeof message === 'string' ? message : undefined}</FieldError>
          </div>
        )
      })}
    </div>
  )
}

interface FieldInputProps {
  field: FieldConfig
  fieldId: string
  errorId: string
  invalid: boolean
  /** The field's current value (for the controlled inputs). */
  value: unknown
  form: UseFormReturn<TypeValues>
  uploaded: UploadedFile | null
  onUploaded: (file: UploadedFile) => void
  onUrlBlur?: () => void
}

function FieldInput({ field, fieldId, errorId, invalid, value, form, uploaded, onUploaded, onUrlBlur }: FieldInputProps) {
  const common = { id: fieldId, 'aria-invalid': invalid || undefined, 'aria-describedby': invalid ? errorId : undefined }
  switch (field.kind) {
    case 'textarea':
      return <Textarea {...common} rows={3} placeholder={field.placeholder} {...form.register(field.name)} />
    case 'select':
      return (
        <select {...common} className={selectClass} {...form.register(field.name)}>
          {field.placeholder !== undefined && <option value="">{field.placeholder}</option>}
          {field.options?.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )
    case 'price':
      return (
        <Input
          {...common}
          type="number"
          step={0.01}
          min={0.01}
          inputMode="decimal"
          placeholder={field.placeholder}
          {...form.register(field.name, { setValueAs: parsePrice })}
        />
      )
    case 'checkbox':
      // The form keeps 'true' or 'false', the text the server expects.
      return (
        <label htmlFor={fieldId} className="inline-flex cursor-pointer items-center gap-2 text-sm font-medium text-slate-700">
          <input
            {...common}
            type="checkbox"
            className="size-4 cursor-pointer rounded border-slate-300 accent-primary"
            checked={value === 'true'}
            onChange={(e) => form.setValue(field.name, String(e.target.checked), { shouldDirty: true, shouldValidate: true })}
          />
          {field.label}
        </label>
      )
    case 'gtin':
      return <GtinInput common={common} placeholder={field.placeholder} form={form} name={field.name} value={value} />
    case 'domain':
      return <DomainSelect common={common} form={form} name={field.name} />
    case 'pdf':
    case 'image':
      return <FileUpload field={field} common={common} form={form} uploaded={uploaded} onUploaded={onUploaded} />
    default: {
      const registered = form.register(field.name)
      return (
        <Input
          {...common}
          type={field.kind === 'url' ? 'text' : field.kind}
          inputMode={field.kind === 'url' ? 'url' : undefined}
          autoComplete={field.kind === 'url' ? 'url' : undefined}
          placeholder={field.placeholder}
          {...registered}
          onBlur={(e) => {
            void registered.onBlur(e)
            onUrlBlur?.()
          }}
        />
      )
    }
  }
}

function FileUpload({
  field,
  common,
  form,
  uploaded,
  onUploaded,
}: {
  field: FieldConfig
  common: { id: string; 'aria-invalid'?: boolean; 'aria-describedby'?: string }
  form: UseFormReturn<TypeValues>
  uploaded: UploadedFile | null
  onUploaded: (file: UploadedFile) => void
}) {
  const input = useRef<HTMLInputElement>(null)
  const [busy, setBusy] = useState(false)
  const isPdf = field.kind === 'pdf'
  const Icon = isPdf ? FileText : ImageIcon

  const upload = async (file: File | undefined) => {
    if (!file) return
    setBusy(true)
    const title = String(form.getValues('title') ?? '')
    const description = String(form.getValues('description') ?? '')
    try {
      const kind = isPdf ? 'pdf' : 'image'
      const answer = await uploadDocument(kind, file, title, description)
      form.setValue(field.name, String(answer.id), { shouldValidate: true, shouldDirty: true })
      onUploaded({ ...answer, kind, file, title, description })
    } catch {
      toast({ title: isPdf ? 'Failed to upload PDF file' : 'Failed to upload image file', variant: 'destructive' })
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="flex flex-wrap items-center gap-3">
      <input
        {...common}
        ref={input}
        type="file"
        accept={isPdf ? '.pdf,application/pdf' : 'image/*'}
        className="sr-only"
        onChange={(e) => {
          void upload(e.target.files?.[0])
          e.target.value = ''
        }}
      />
      <Button type="button" variant="outline" disabled={busy} onClick={() => input.current?.click()}>
        {busy ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Upload aria-hidden="true" />}
        {uploaded ? 'Replace file' : isPdf ? 'Choose PDF' : 'Choose image'}
      </Button>
      {uploaded ? (
        <span className="inline-flex min-w-0 items-center gap-2 text-sm text-slate-700">
          <Icon className="size-4 shrink-0 text-primary" aria-hidden="true" />
          <span className="truncate">{uploaded.fileName}</span>
        </span>
      ) : (
        <span className="text-sm text-slate-500">{isPdf ? 'PDF, up to 20 MB' : 'PNG, JPEG, GIF or WebP, up to 10 MB'}</span>
      )}
    </div>
  )
}

type CommonProps = { id: string; 'aria-invalid'?: boolean; 'aria-describedby'?: string }

/** A GTIN input that says, once the GTIN has a GTIN's length, whether its check digit is right. */
function GtinInput({ common, placeholder, form, name, value }: { common: CommonProps; placeholder?: string; form: UseFormReturn<TypeValues>; name: string; value: unknown }) {
  const feedback = gtinFeedback(typeof value === 'string' ? value : '')
  return (
    <>
      <Input {...common} inputMode="numeric" autoComplete="off" placeholder={placeholder} {...form.register(name)} />
      <p className={cn('text-xs', feedback?.ok ? 'text-emerald-700' : feedback ? 'text-red-600' : 'text-slate-500')} aria-live="polite">
        {feedback?.text ?? '8, 12, 13 or 14 digits; the last is the check digit'}
      </p>
    </>
  )
}

/** The workspace's verified domains for the code's URI; visitors print the base URL. */
function DomainSelect({ common, form, name }: { common: CommonProps; form: UseFormReturn<TypeValues>; name: string }) {
  const { data: user } = useUser()
  const domains = useVerifiedDomains(Boolean(user))
  return (
    <select {...common} className={selectClass} {...form.register(name)}>
      <option value="">{window.location.host} (this site)</option>
      {(domains.data ?? []).map((d) => (
        <option key={d.id} value={String(d.id)}>
          {d.domain}
        </option>
      ))}
    </select>
  )
}
