import { Plus, Trash2 } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { FieldError } from '@/components/ui/field-error'
import { Input } from '@/components/ui/input'
import { TabsContent } from '@/components/ui/tabs'
import { invalidProps } from '../lib/routing-errors'
import { variantName } from '../lib/routing'
import { editPanel } from './edit-dialog-layout'
import { Field, RouteTargetFields, type RoutingTabProps } from './routing-fields'

/** The Split tab: URLs that share the scans no rule matched, by weight. */
export function RoutingSplitTab({ draft, setDraft, errors, footer }: RoutingTabProps) {
  // A refusal of the whole split (the weights' sum) shows under the total and describes every weight.
  const weightProps = (i: number) => {
    const own = errors[`split.${i}.weight`]
    if (own) return invalidProps(`split-${i}-weight`, own)
    return errors.split ? { 'aria-invalid': true as const, 'aria-describedby': 'split-total-error' } : {}
  }
  return (
    <TabsContent value="split" className={`grid content-start gap-3 ${editPanel}`}>
      <p className="text-sm text-slate-600">
        Scans no rule matched are shared among these URLs or hosted pages by weight (adding up to 100); each visitor keeps getting the same one.
      </p>
      {draft.split.map((variant, i) => (
        <div key={i} className="flex items-start gap-2">
          <div className="min-w-0 flex-1">
            <RouteTargetFields
              id={`split-${i}`}
              name={variantName(i)}
              target={variant}
              onChange={(t) => setDraft((d) => ({ ...d, split: d.split.map((v, j) => (j === i ? { ...t, weight: v.weight } : v)) }))}
              errors={{ destination: errors[`split.${i}.destination`], pageId: errors[`split.${i}.pageId`] }}
            />
          </div>
          <Field id={`split-${i}-weight`} label="Weight" className="w-20 shrink-0" error={errors[`split.${i}.weight`]}>
            <Input
              id={`split-${i}-weight`}
              {...weightProps(i)}
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
            className="mt-6 shrink-0"
            onClick={() => setDraft((d) => ({ ...d, split: d.split.filter((_, j) => j !== i) }))}
            aria-label={`Remove ${variantName(i)}`}
          >
            <Trash2 aria-hidden="true" />
          </Button>
        </div>
      ))}
      <p id="split-total" className="text-sm text-slate-600">
        Total: {draft.split.reduce((sum, v) => sum + v.weight, 0)}
      </p>
      <FieldError id="split-total-error">{errors.split}</FieldError>
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
