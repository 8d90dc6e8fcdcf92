import { Loader2, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { NativeSelect } from '@/components/ui/native-select'
import { serverMessage } from '@/lib/api-client'
import { useDeleteUtmPreset, useSaveUtmPreset, useUtmPresets } from '../api/utm-presets'
import { utmKeys, type UtmValues } from '../lib/utm'

/**
 * The Destination tab's UTM builder: five fields, filled by hand or from one
 * of the workspace's saved presets, which it also saves and deletes. "Add
 * UTM to URL" hands the values to onAdd.
 */
export function UtmBuilder({ idSuffix, onAdd }: { idSuffix: string | number; onAdd: (values: UtmValues) => void }) {
  const presets = useUtmPresets()
  const save = useSaveUtmPreset()
  const remove = useDeleteUtmPreset()
  const [utm, setUtm] = useState<UtmValues>({})
  const [chosen, setChosen] = useState('')
  const [name, setName] = useState('')
  const [problem, setProblem] = useState<string>()
  const id = (part: string) => `utm-${part}-${idSuffix}`
  const fail = (fallback: string) => (error: unknown) => setProblem(serverMessage(error) ?? fallback)

  const choose = (value: string) => {
    setChosen(value)
    setProblem(undefined)
    const preset = presets.data?.find((p) => String(p.id) === value)
    if (preset) setUtm(Object.fromEntries(utmKeys.map((key) => [key, preset[key]])))
  }
  const saveAs = () => {
    setProblem(undefined)
    save.mutate(
      { name: name.trim(), ...Object.fromEntries(utmKeys.map((key) => [key, utm[key]?.trim() ?? ''])) },
      {
        onSuccess: (preset) => {
          setName('')
          setChosen(String(preset.id))
        },
        onError: fail('The preset could not be saved.'),
      },
    )
  }
  const deleteChosen = () => {
    setProblem(undefined)
    remove.mutate(Number(chosen), { onSuccess: () => setChosen(''), onError: fail('The preset could not be deleted.') })
  }

  return (
    <fieldset className="grid gap-3 rounded-lg border border-slate-200 p-3">
      <legend className="px-1 text-sm font-semibold">UTM builder</legend>
      <div className="flex flex-wrap items-end gap-2">
        <div className="grid gap-1">
          <Label htmlFor={id('preset')}>Saved preset</Label>
          <NativeSelect id={id('preset')} value={chosen} onChange={(e) => choose(e.target.value)} disabled={!presets.data?.length}>
            <option value="">{presets.data?.length ? 'Choose a preset…' : 'No presets saved yet'}</option>
            {presets.data?.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </NativeSelect>
        </div>
        <Button type="button" variant="outline" size="sm" onClick={deleteChosen} disabled={!chosen || remove.isPending}>
          <Trash2 aria-hidden="true" />
          Delete preset
        </Button>
      </div>
      <div className="grid gap-2 sm:grid-cols-5">
        {utmKeys.map((key) => (
          <div key={key} className="grid gap-1">
            <Label htmlFor={id(key)}>{`utm_${key}`}</Label>
            <Input id={id(key)} value={utm[key] ?? ''} maxLength={100} onChange={(e) => setUtm((u) => ({ ...u, [key]: e.target.value }))} />
          </div>
        ))}
      </div>
      <div className="flex flex-wrap items-end gap-2">
        <Button type="button" variant="outline" size="sm" onClick={() => onAdd(utm)}>
          Add UTM to URL
        </Button>
        <div className="ml-auto grid gap-1">
          <Label htmlFor={id('preset-name')}>Preset name</Label>
          <Input
            id={id('preset-name')}
            value={name}
            maxLength={50}
            onChange={(e) => setName(e.target.value)}
            // Enter saves the preset, not the destination form around it.
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault()
                if (name.trim()) saveAs()
              }
            }}
            className="h-9"
          />
        </div>
        <Button type="button" variant="outline" size="sm" onClick={saveAs} disabled={!name.trim() || save.isPending}>
          {save.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
          Save as preset
        </Button>
      </div>
      {problem && (
        <p role="alert" className="text-sm text-red-600">
          {problem}
        </p>
      )}
    </fieldset>
  )
}
