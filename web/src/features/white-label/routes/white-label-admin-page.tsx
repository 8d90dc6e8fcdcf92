import { Pencil, Plus, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { Spinner } from '@/components/ui/spinner'
import { ApiError, serverFieldErrors, serverMessage } from '@/lib/api-client'
import { useUser } from '@/lib/auth'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'
import { toast } from '@/lib/use-toast'
import { useClients, useCreateClient, useDeleteClient, useRotateClientKey, useUpdateClient, type Client, type ClientInput } from '../api/clients'
import { ClientApiKey } from '../components/client-api-key'
import { ClientFormDialog } from '../components/client-form-dialog'


function failed(description: string, error: unknown) {
  toast({ title: 'Error', description: serverMessage(error) ?? description, variant: 'destructive' })
}

export function WhiteLabelAdminPage() {
  usePageTitle(siteTitle('White Label Clients'))
  const { data: user } = useUser()
  const clients = useClients()
  const create = useCreateClient()
  const update = useUpdateClient()
  const remove = useDeleteClient()
  const rotate = useRotateClientKey()
  const [creating, setCreating] = useState(false)
  const [editing, setEditing] = useState<Client>()
  // Keys just made, by client: shown once, gone on reload.
  const [freshKeys, setFreshKeys] = useState<Record<number, string>>({})

  function submitCreate(input: ClientInput) {
    create.mutate(input, {
      onSuccess: (created) => {
        setCreating(false)
        // Its key comes whole in this answer only: the card shows it, with show and copy, until a reload.
        const { id, apiKey } = created as Client
        if (apiKey) setFreshKeys((keys) => ({ ...keys, [id]: apiKey }))
        toast({ title: 'Success', description: 'Client created successfully' })
      },
      onError: (error) => failed('Failed to create client', error),
    })
  }

  function submitEdit(input: ClientInput) {
    if (!editing) return
    update.mutate(
      { id: editing.id, input },
      {
        onSuccess: () => {
          setEditing(undefined)
          toast({ title: 'Success', description: 'Client updated successfully' })
        },
        onError: (error) => failed('Failed to update client', error),
      },
    )
  }

  function deleteClient(client: Client) {
    if (!window.confirm(`Delete ${client.name}? Its users and codes move to the default site.`)) return
    remove.mutate(client.id, {
      onSuccess: () => toast({ title: 'Success', description: 'Client deleted successfully' }),
      onError: (error) => failed('Failed to delete client', error),
    })
  }

  function rotateKey(client: Client) {
    rotate.mutate(client.id, {
      onSuccess: (data) => {
        const rotated = data as Client
        if (rotated.apiKey) setFreshKeys((keys) => ({ ...keys, [client.id]: rotated.apiKey as string }))
      },
      onError: (error) => failed('Failed to rotate the API key', error),
    })
  }

  return (
    <div className="mx-auto grid max-w-5xl gap-6 px-4 py-10 sm:px-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold">White Label Clients</h1>
          <p className="text-slate-600">Run the site under a client's brand on its own domain or subdomain.</p>
        </div>
        {/* Only admins may create clients: the server refuses everyone else. */}
        {user?.isAdmin && (
          <Button
            onClick={() => {
              create.reset()
              setCreating(true)
            }}
          >
            <Plus aria-hidden="true" /> Add Client
          </Button>
        )}
      </div>

      {clients.isPending && <Spinner />}
      {clients.isError && (
        <Alert variant="destructive">
          {clients.error instanceof ApiError && clients.error.status === 403
            ? 'Admin access required'
            : (serverMessage(clients.error) ?? 'Failed to fetch clients')}
        </Alert>
      )}

      <div className="grid gap-4">
        {clients.data?.map((client) => (
          <Card key={client.id} data-testid={`client-${client.id}`}>
            <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-4">
              <div className="grid gap-1">
                <CardTitle className="flex items-center gap-2">
                  <span className="inline-block size-4 rounded-full" style={{ backgroundColor: client.primaryColor }} aria-hidden="true" />
                  {client.name}
                  {!client.isActive && <span className="rounded bg-slate-200 px-2 py-0.5 text-xs font-medium text-slate-700">Inactive</span>}
                </CardTitle>
                <p className="text-sm text-slate-600">
                  {[client.customDomain, client.subdomain && `${client.subdomain} (subdomain)`].filter(Boolean).join(' · ') || 'Default site'}
                </p>
              </div>
              <div className="flex gap-2">
                <Button
                  size="sm"
                  variant="outline"
                  aria-label={`Edit ${client.name}`}
                  onClick={() => {
                    update.reset()
                    setEditing(client)
                  }}
                >
                  <Pencil aria-hidden="true" /> Edit
                </Button>
                {client.id !== 1 && (
                  <Button size="sm" variant="destructive" aria-label={`Delete ${client.name}`} onClick={() => deleteClient(client)}>
                    <Trash2 aria-hidden="true" /> Delete
                  </Button>
                )}
              </div>
            </CardHeader>
            <CardContent>
              <p className="mb-1 text-sm font-medium">API key</p>
              <ClientApiKey
                clientName={client.name}
                masked={client.apiKeyMasked}
                fullKey={freshKeys[client.id]}
                rotating={rotate.isPending && rotate.variables === client.id}
                onRotate={() => rotateKey(client)}
              />
            </CardContent>
          </Card>
        ))}
      </div>

      {creating && (
        <ClientFormDialog open onOpenChange={setCreating} pending={create.isPending} serverErrors={serverFieldErrors(create.error)} onSubmit={submitCreate} />
      )}
      {editing && (
        <ClientFormDialog
          key={editing.id}
          open
          onOpenChange={(open) => !open && setEditing(undefined)}
          client={editing}
          pending={update.isPending}
          serverErrors={serverFieldErrors(update.error)}
          onSubmit={submitEdit}
        />
      )}
    </div>
  )
}
