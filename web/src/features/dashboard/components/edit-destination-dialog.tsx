import { zodResolver } from '@hookform/resolvers/zod'
import { Loader2 } from 'lucide-react'
import { useForm } from 'react-hook-form'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { TextField } from '@/components/ui/form-field'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { fieldMessage } from '@/lib/api-client'
import { useEditDestination } from '../api/codes'
import { destinationSchema, type DestinationInput } from '../api/schemas'
import type { DynamicCode } from '../api/types'
import { withUtm } from '../lib/utm'
import { RoutingTabs } from './routing-editor'
import { UtmBuilder } from './utm-builder'

/**
 * Edit Dynamic QR Code: the destination (with a UTM builder and the
 * workspace's saved UTM presets) and the smart routing tabs; the printed
 * image stays valid.
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
              <UtmBuilder
                idSuffix={code.id}
                onAdd={(utm) => setValue('destination', withUtm(getValues('destination'), utm), { shouldDirty: true })}
              />
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
