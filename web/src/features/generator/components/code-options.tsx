import { Loader2, Plus } from 'lucide-react'
import { lazy, Suspense } from 'react'
import { Link } from 'react-router'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { Switch } from '@/components/ui/switch'
import { qrTypeLabel, type QrType } from '@/lib/qr-types'
import { OptionGroup } from './option-group'

// Only signed-in members making a dynamic code see it: its code stays off the landing page.
const ShortCodeField = lazy(() => import('@/components/short-code-field'))

export type Mode = 'static' | 'dynamic'

export interface CodeOptionsProps {
  id: string
  signedIn: boolean
  qrType: QrType
  canBeDynamic: boolean
  dynamic: boolean
  onScanTrackingChange: (on: boolean) => void
  onModeChange: (mode: Mode) => void
  name: string
  onNameChange: (name: string) => void
  /** A dynamic code's chosen short code ('' for a random one), and the server's refusal of it. */
  shortCode: string
  onShortCodeChange: (code: string) => void
  shortCodeError?: string
  showSubmit: boolean
  busy: boolean
  /** The saved code Generate updates, if any. */
  editing: { name: string } | null
  onStartNew: () => void
}

/** Under the tabs: scan tracking, the mode and name of a saved code, Generate, and which saved code Generate updates. */
export function CodeOptions({
  id,
  signedIn,
  qrType,
  canBeDynamic,
  dynamic,
  onScanTrackingChange,
  onModeChange,
  name,
  onNameChange,
  shortCode,
  onShortCodeChange,
  shortCodeError,
  showSubmit,
  busy,
  editing,
  onStartNew,
}: CodeOptionsProps) {
  return (
    <div className="grid gap-4 border-t border-slate-100 p-5 sm:p-6">
      <div className="flex items-center justify-between gap-4 rounded-xl bg-slate-50 p-4">
        <div>
          <Label htmlFor={`${id}-tracking`}>Scan tracking</Label>
          <p className="text-sm text-slate-500">
            {signedIn && !canBeDynamic
              ? `${qrTypeLabel(qrType)} codes hold their content, so they are static.`
              : 'Count every scan with a dynamic code you can edit after printing.'}
          </p>
        </div>
        <Switch
          id={`${id}-tracking`}
          checked={dynamic}
          disabled={signedIn && !canBeDynamic}
          onCheckedChange={onScanTrackingChange}
        />
      </div>

      {signedIn && (
        <div className="grid gap-4 sm:grid-cols-2">
          <OptionGroup
            label="Code mode"
            value={dynamic ? 'dynamic' : 'static'}
            onChange={(m: Mode) => onModeChange(m)}
            disabled={!canBeDynamic}
            options={[
              { value: 'static', label: 'Static' },
              { value: 'dynamic', label: 'Dynamic' },
            ]}
          />
          <div className="grid content-start gap-1.5">
            <Label htmlFor={`${id}-name`}>Name (optional)</Label>
            <Input
              id={`${id}-name`}
              value={name}
              maxLength={100}
              placeholder={`${qrTypeLabel(qrType)} ${new Date().toISOString().slice(0, 10)}`}
              onChange={(e) => onNameChange(e.target.value)}
            />
          </div>
        </div>
      )}

      {signedIn && dynamic && !editing && (
        <Suspense fallback={null}>
          <ShortCodeField id={id} value={shortCode} onChange={onShortCodeChange} serverError={shortCodeError} />
        </Suspense>
      )}

      {showSubmit && (
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
          <Button type="submit" size="lg" disabled={busy} className="sm:min-w-52">
            {busy && <Loader2 className="animate-spin" aria-hidden="true" />}
            {busy ? 'Generating...' : 'Generate QR Code'}
          </Button>
          {!signedIn && (
            <p className="text-sm text-slate-600">
              <Link to="/auth" className="font-semibold text-primary hover:underline">
                Sign in
              </Link>{' '}
              to save your codes, add logos and track scans.
            </p>
          )}
        </div>
      )}
      {signedIn && editing && (
        <div className="flex flex-col gap-2 rounded-xl border border-primary/20 bg-primary-50 p-3 text-sm text-slate-700 sm:flex-row sm:items-center sm:justify-between">
          <p className="min-w-0 break-words" data-testid="editing-code">
            Editing <strong className="font-semibold">“{editing.name}”</strong>: Generate QR Code updates it.
          </p>
          <Button type="button" variant="outline" size="sm" className="shrink-0" onClick={onStartNew}>
            <Plus aria-hidden="true" />
            Start a new code
          </Button>
        </div>
      )}
    </div>
  )
}
