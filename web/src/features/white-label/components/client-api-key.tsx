import { Copy, Eye, EyeOff, RefreshCw } from 'lucide-react'
import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { toast } from '@/lib/use-toast'

interface ClientApiKeyProps {
  clientName: string
  /** prefix…last4, '' when the client has no key yet. */
  masked: string
  /** The whole key, known only right after a rotation. */
  fullKey?: string
  rotating: boolean
  onRotate: () => void
}

/** A client's API key: masked, shown and copied while the whole key is known, and rotated. */
export function ClientApiKey({ clientName, masked, fullKey, rotating, onRotate }: ClientApiKeyProps) {
  const [shown, setShown] = useState(false)
  const text = fullKey && shown ? fullKey : masked || 'No key yet'

  async function copy() {
    if (!fullKey) return
    await navigator.clipboard.writeText(fullKey)
    toast({ title: 'Copied!', description: 'API key copied to clipboard' })
  }

  return (
    <div className="grid gap-2">
      <div className="flex items-center gap-2">
        <code data-testid="client-api-key" className="min-w-0 flex-1 truncate rounded-md bg-slate-100 px-2 py-1 font-mono text-xs">
          {text}
        </code>
        {fullKey && (
          <>
            <Button type="button" size="sm" variant="ghost" aria-label={shown ? `Hide API key of ${clientName}` : `Show API key of ${clientName}`} onClick={() => setShown((s) => !s)}>
              {shown ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
            </Button>
            <Button type="button" size="sm" variant="ghost" aria-label={`Copy API key of ${clientName}`} onClick={copy}>
              <Copy aria-hidden="true" />
            </Button>
          </>
        )}
        <Button type="button" size="sm" variant="outline" disabled={rotating} onClick={onRotate}>
          <RefreshCw aria-hidden="true" /> {masked ? 'Rotate' : 'Create key'}
        </Button>
      </div>
      {fullKey && <p className="text-xs text-amber-700">Copy this key now: it will not be shown again.</p>}
    </div>
  )
}
