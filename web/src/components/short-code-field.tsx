import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { shortCodeProblem, useShortCodeAvailability } from '@/lib/short-codes'

/** The optional chosen short code, with its availability on the code's host (the base URL or domainId) shown as the user types. */
export default function ShortCodeField({
  id,
  value,
  onChange,
  serverError,
  domainId,
  label = 'Short code (optional)',
  hint = 'Leave empty for a random code. Letters, digits, - and _; 3 to 64 characters.',
}: {
  id: string
  value: string
  onChange: (code: string) => void
  serverError?: string
  domainId?: number | null
  label?: string
  hint?: string
}) {
  const availability = useShortCodeAvailability(value, domainId)
  const local = shortCodeProblem(value.trim())
  let status: { text: string; ok: boolean } | null = null
  if (serverError) status = { text: serverError, ok: false }
  else if (local) status = { text: local, ok: false }
  else if (value.trim() !== '' && !availability.pending && availability.data) {
    status = availability.data.available
      ? { text: 'Available', ok: true }
      : { text: availability.data.message ?? 'Not available', ok: false }
  }
  return (
    <div className="grid content-start gap-1.5">
      <Label htmlFor={`${id}-short-code`}>{label}</Label>
      <Input
        id={`${id}-short-code`}
        value={value}
        maxLength={64}
        placeholder="spring-menu"
        autoComplete="off"
        spellCheck={false}
        aria-invalid={status ? !status.ok : undefined}
        aria-describedby={`${id}-short-code-status`}
        onChange={(e) => onChange(e.target.value)}
      />
      <p
        id={`${id}-short-code-status`}
        role="status"
        data-testid="short-code-status"
        className={status ? (status.ok ? 'text-sm text-emerald-700' : 'text-sm text-red-600') : 'text-sm text-slate-500'}
      >
        {status ? status.text : hint}
      </p>
    </div>
  )
}
