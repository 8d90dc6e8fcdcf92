import { Save } from 'lucide-react'
import { useEffect, useId, useRef, useState } from 'react'
import { Link } from 'react-router'
import { NameDialog } from '@/components/name-dialog'
import { Button } from '@/components/ui/button'
import { Label } from '@/components/ui/label'
import { NativeSelect } from '@/components/ui/native-select'
import { toast } from '@/lib/use-toast'
import { useCan } from '@/lib/workspace'
import { useBrandKits, useCreateBrandKit, type BrandKit } from '../api/brand-kits'

export interface BrandKitPickerProps {
  /** Called with the kit chosen; the caller takes its style fields and logo. */
  onApply: (kit: BrandKit) => void
  /** The current design as the API takes it (style fields, logoId): offers "Save as brand kit" when given. */
  design?: Record<string, unknown>
  /** Apply the workspace's default kit once, when the kits arrive (a new code in the generator). */
  applyDefault?: boolean
}

/**
 * The workspace's brand kits in one list: choosing one restyles the design
 * in one step, and the current design can be saved as a new kit.
 */
export function BrandKitPicker({ onApply, design, applyDefault = false }: BrandKitPickerProps) {
  const id = useId()
  const kits = useBrandKits()
  const create = useCreateBrandKit()
  const editor = useCan('editCodes')
  // null until the user picks: the default kit, when applied, shows as chosen.
  const [chosen, setChosen] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const [asDefault, setAsDefault] = useState(false)
  const defaultKit = applyDefault ? kits.data?.find((k) => k.isDefault) : undefined
  const defaultApplied = useRef(false)

  useEffect(() => {
    if (defaultApplied.current || !kits.data) return
    defaultApplied.current = true
    if (defaultKit) onApply(defaultKit)
  }, [kits.data, defaultKit, onApply])

  const choose = (value: string) => {
    setChosen(value)
    const kit = kits.data?.find((k) => String(k.id) === value)
    if (kit) {
      onApply(kit)
      toast({ title: `Brand kit “${kit.name}” applied` })
    }
  }

  const list = kits.data ?? []
  return (
    <div className="grid gap-2 rounded-xl border border-slate-200 bg-slate-50 p-3">
      <div className="grid min-w-0 gap-1.5">
        <Label htmlFor={`${id}-kit`}>Brand kit</Label>
        <NativeSelect id={`${id}-kit`} className="w-full min-w-0" value={chosen ?? (defaultKit ? String(defaultKit.id) : '')} onChange={(e) => choose(e.target.value)} disabled={list.length === 0}>
          <option value="">{list.length === 0 ? 'No brand kits yet' : 'Choose a kit to apply its design'}</option>
          {list.map((kit) => (
            <option key={kit.id} value={String(kit.id)}>
              {kit.isDefault ? `${kit.name} (default)` : kit.name}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        {design && editor && (
          <Button type="button" variant="outline" onClick={() => setSaving(true)}>
            <Save aria-hidden="true" /> Save as brand kit
          </Button>
        )}
        <Link to="/workspace/brand-kits" className="text-sm font-medium text-primary hover:underline">
          Manage kits
        </Link>
      </div>
      {design && (
        <NameDialog
          open={saving}
          onOpenChange={setSaving}
          title="Save as brand kit"
          description="Keeps these colours, shapes, frame and logo for everyone in the workspace."
          label="Kit name"
          submitLabel="Save kit"
          onSubmit={(name) =>
            create.mutateAsync({ ...design, name, isDefault: asDefault }).then((kit) => {
              setChosen(String(kit.id))
              setAsDefault(false)
              toast({ title: 'Brand kit saved', description: `“${kit.name}” is ready to apply to any code.` })
            })
          }
        >
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <input type="checkbox" checked={asDefault} onChange={(e) => setAsDefault(e.target.checked)} className="size-4 accent-primary" />
            Make it the workspace's default kit
          </label>
        </NameDialog>
      )}
    </div>
  )
}
