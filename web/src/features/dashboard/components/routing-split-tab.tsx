import { Plus, Trash2 } from 'lucide-react'
import type { Dispatch, ReactNode, SetStateAction } from 'react'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { TabsContent } from '@/components/ui/tabs'
import type { Routing } from '../api/types'
import { Field } from './routing-fields'

/** The Split tab: URLs that share the scans no rule matched, by weight. */
export function RoutingSplitTab({ draft, setDraft, footer }: { draft: Routing; setDraft: Dispatch<SetStateAction<Routing>>; footer: ReactNode }) {
  return (
    <TabsContent value="split" className="grid gap-3">
      <p className="text-sm text-slate-600">
        Scans no rule matched are shared among these URLs by weight (adding up to 100); each visitor keeps getting the same one.
      </p>
      {draft.split.map((variant, i) => (
        <div key={i} className="flex items-end gap-2">
          <Field id={`split-${i}-destination`} label={`Variant ${i + 1} URL`} className="flex-1">
            <Input
              id={`split-${i}-destination`}
              type="url"
              value={variant.destination}
              onChange={(e) => setDraft((d) => ({ ...d, split: d.split.map((v, j) => (j === i ? { ...v, destination: e.target.value } : v)) }))}
            />
          </Field>
          <Field id={`split-${i}-weight`} label="Weight" className="w-24">
            <Input
              id={`split-${i}-weight`}
              type="number"
              min={1}
              max={100}
              value={variant.weight}
              onChange={(e) => setDraft((d) => ({ ...d, split: d.split.map((v, j) => (j === i ? { ...v, weight: Number(e.target.value) } : v)) }))}
            />
          </Field>
          <Button
            type="button"
            variant="outline"
            onClick={() => setDraft((d) => ({ ...d, split: d.split.filter((_, j) => j !== i) }))}
            aria-label={`Remove variant ${i + 1}`}
          >
            <Trash2 aria-hidden="true" />
          </Button>
        </div>
      ))}
      <p className="text-sm text-slate-600">Total: {draft.split.reduce((sum, v) => sum + v.weight, 0)}</p>
      <Button
        type="button"
        variant="outline"
        disabled={draft.split.length >= 10}
        onClick={() => setDraft((d) => ({ ...d, split: [...d.split, { destination: '', weight: 0 }] }))}
      >
        <Plus aria-hidden="true" />
        Add variant
      </Button>
      {footer}
    </TabsContent>
  )
}
