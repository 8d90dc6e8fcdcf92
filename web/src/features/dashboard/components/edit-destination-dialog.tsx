import { zodResolver } from '@hookform/resolvers/zod'
import { Loader2 } from 'lucide-react'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { TextField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { fieldMessage } from '@/lib/api-client'
import { useEditDestination } from '../api/codes'
import { destinationSchema, type DestinationInput } from '../api/schemas'
import type { DynamicCode } from '../api/types'
import { utmKeys, withUtm, type UtmValues } from '../lib/utm'
import { RoutingTabs } from './routing-editor'

/**
 * Edit Dynamic QR Code: the destination (with a UTM builder) and the smart
 * routing tabs; the printed image stays valid. Saved UTM presets wait for
 * workspaces (issue 23 item 3).
 */
export function EditDestinationDialog({ code, open, onOpenChange }: { code: DynamicCode; open: boolean; onOpenChange: (open: boolean) => void }) {
  const edit = useEditDestination()
  const {
    register,
    handleSubmit,
    setError,
    reset,
    setValue,
    getValues,
    formState: { errors },
  } = useForm<DestinationInput>({ resolver: zodResolver(destinationSchema), values: { destination: code.destination } })

  const [utm, setUtm] = useState<UtmValues>({})
  const changeOpen = (next: boolean) => {
    if (!next) reset()
    onOpenChange(next)
  }
  const submit = handleSubmit(({ destination }) =>
    edit.mutate(
      { code, destination },
      {
        onSuccess: () => onOpenChange(false),
        onError: (error) => {
          const message = fieldMessage(error, 'destination')
          if (message) setError('destination', { message })
        },
      },
    ),
  )

  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>Edit Dynamic QR Code</DialogTitle>
          <DialogDescription>
            Change where “{code.name}” sends people. The QR code image stays the same, so printed codes keep working.
          </DialogDescription>
        </DialogHeader>
        <Tabs defaultValue="destination">
          <TabsList>
            <TabsTrigger value="destination">Destination</TabsTrigger>
            <TabsTrigger value="rules">Rules</TabsTrigger>
            <TabsTrigger value="split">Split</TabsTrigger>
            <TabsTrigger value="schedule">Schedule &amp; limit</TabsTrigger>
          </TabsList>
          <TabsContent value="destination">
            <form noValidate className="grid gap-4" onSubmit={submit}>
              <TextField
                id={`destination-${code.id}`}
                label="Destination URL"
                error={errors.destination?.message}
                type="url"
                placeholder="https://example.com"
                {...register('destination')}
              >
                <p className="text-xs text-slate-500">
                  Short link: <span className="font-mono">{code.shortUrl}</span>
                </p>
              </TextField>
              <fieldset className="grid gap-2 rounded-lg border border-slate-200 p-3">
                <legend className="px-1 text-sm font-semibold">UTM builder</legend>
                <div className="grid gap-2 sm:grid-cols-5">
                  {utmKeys.map((key) => (
                    <div key={key} className="grid gap-1">
                      <Label htmlFor={`utm-${key}-${code.id}`}>{`utm_${key}`}</Label>
                      <Input id={`utm-${key}-${code.id}`} value={utm[key] ?? ''} onChange={(e) => setUtm((u) => ({ ...u, [key]: e.target.value }))} />
                    </div>
                  ))}
                </div>
                <Button
                  type="button"
                  variant="outline"
                  size="sm"
                  className="justify-self-start"
                  onClick={() => setValue('destination', withUtm(getValues('destination'), utm), { shouldDirty: true })}
                >
                  Add UTM to URL
                </Button>
              </fieldset>
              <DialogFooter>
                <Button type="button" variant="outline" onClick={() => changeOpen(false)}>
                  Cancel
                </Button>
                <Button type="submit" disabled={edit.isPending}>
                  {edit.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
                  Save Changes
                </Button>
              </DialogFooter>
            </form>
          </TabsContent>
          <RoutingTabs code={code} onSaved={() => onOpenChange(false)} />
        </Tabs>
      </DialogContent>
    </Dialog>
  )
}
