import { CheckCircle2, Globe, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { AddByNameForm, ListStatus } from '@/components/named-list'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { fieldMessage, serverMessage } from '@/lib/api-client'
import { useFocusAfterRemoval } from '@/lib/use-focus-after-removal'
import { toast } from '@/lib/use-toast'
import { useCan } from '@/lib/workspace'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { Switch } from '@/components/ui/switch'
import { useAddDomain, useCheckPointing, useDeleteDomain, useDomains, useSetDomainLinks, useVerifyDomain, type Domain } from '../api/domains'
import { formatDate, formatDateTime } from '@/lib/dates'

/**
 * The workspace's custom domains (issue 25 item 7): add one, publish the TXT
 * record or the HTTP file it shows, verify, delete. Verified domains are
 * offered in each dynamic code's Domain tab.
 */
export function DomainsCard({ workspaceName }: { workspaceName: string }) {
  const domains = useDomains()
  const add = useAddDomain()
  const mayManage = useCan('manageDomains')
  const [error, setError] = useState<string>()
  const heading = useFocusAfterRemoval(domains.data?.length ?? 0)

  function addDomain(domain: string, clear: () => void) {
    setError(undefined)
    add.mutate(domain, {
      onSuccess: (added) => {
        clear()
        toast({ title: 'Domain added', description: `Publish the record shown for ${added.domain}, then verify it.` })
      },
      onError: (e) => setError(fieldMessage(e, 'domain') ?? serverMessage(e) ?? 'Failed to add the domain'),
    })
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle ref={heading} tabIndex={-1} className="flex items-center gap-2 focus:outline-none">
          <Globe className="size-5" aria-hidden="true" /> Custom domains
        </CardTitle>
        <CardDescription>
          Print the dynamic codes of {workspaceName} on your own domain, such as https://qr.example.com/d/…, instead of Squarely’s. Point the domain here
          with the DNS record each domain shows, prove it is yours with a TXT record or a file on your web server, then choose it in a code’s Domain
          tab.
          {!mayManage && ' Only owners and admins add and verify domains.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {mayManage && (
          <AddByNameForm
            id="domain-name"
            label="Domain"
            placeholder="qr.example.com"
            maxLength={253}
            required="Domain is required"
            submitLabel="Add domain"
            pendingLabel="Adding..."
            pending={add.isPending}
            error={error}
            onAdd={addDomain}
          />
        )}
        <ListStatus query={domains} failed="Failed to load domains" empty="No domains yet." />
        <ul className="grid gap-3">
          {domains.data?.map((d) => (
            <DomainItem key={d.id} domain={d} mayManage={mayManage} />
          ))}
        </ul>
      </CardContent>
    </Card>
  )
}

function DomainItem({ domain: d, mayManage }: { domain: Domain; mayManage: boolean }) {
  const verify = useVerifyDomain()
  const pointing = useCheckPointing()
  const remove = useDeleteDomain()
  const verified = d.status === 'verified'
  const lost = d.status === 'lost'

  function check() {
    verify.mutate(d.id, {
      onSuccess: (v) =>
        toast({
          title: 'Domain verified',
          description: v.pointing ? `${v.domain} is yours and points here: codes can print it now.` : `${v.domain} is yours. Now point it here with the record shown.`,
        }),
      onError: (e) => toast({ title: 'Not verified yet', description: serverMessage(e) ?? 'Verification failed', variant: 'destructive' }),
    })
  }

  function checkPointing() {
    pointing.mutate(d.id, {
      onSuccess: (v) => toast({ title: 'Domain points here', description: `${v.domain} reaches Squarely: codes can print it now.` }),
      onError: (e) => toast({ title: 'Not pointing here yet', description: serverMessage(e) ?? 'The check failed', variant: 'destructive' }),
    })
  }

  function deleteDomain() {
    if (!window.confirm(`Delete ${d.domain}? Codes printed with it stop working on it.`)) return
    remove.mutate(d.id, {
      onSuccess: () => toast({ title: 'Domain deleted', description: `${d.domain} no longer serves your codes.` }),
      onError: (e) => toast({ title: 'Error', description: serverMessage(e) ?? 'Failed to delete the domain', variant: 'destructive' }),
    })
  }

  return (
    <li className="grid gap-3 rounded-lg border border-slate-200 p-3" data-testid={`domain-${d.domain}`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex min-w-0 items-center gap-2">
          <span className="break-all font-mono font-medium">{d.domain}</span>
          {verified && d.pointing && (
            <Badge tone="emerald">
              <CheckCircle2 aria-hidden="true" /> Verified
            </Badge>
          )}
          {verified && !d.pointing && <Badge tone="amber">Verified, not pointing here yet</Badge>}
          {lost && <Badge tone="red">Proof missing</Badge>}
          {d.status === 'pending' && <Badge tone="amber">Pending</Badge>}
          {d.codes > 0 && (
            <span className="text-xs text-slate-600">
              {d.codes} {d.codes === 1 ? 'code' : 'codes'}
            </span>
          )}
        </div>
        {mayManage && (
          <div className="flex gap-2">
            {d.status === 'pending' && (
              <Button size="sm" onClick={check} disabled={verify.isPending}>
                {verify.isPending ? 'Verifying...' : 'Verify'}
              </Button>
            )}
            {d.status !== 'pending' && !d.pointing && (
              <Button size="sm" onClick={checkPointing} disabled={pointing.isPending}>
                {pointing.isPending ? 'Checking...' : 'Check again'}
              </Button>
            )}
            <Button size="sm" variant="ghost" aria-label={`Delete ${d.domain}`} onClick={deleteDomain} disabled={remove.isPending}>
              <Trash2 aria-hidden="true" /> Delete
            </Button>
          </div>
        )}
      </div>
      {!verified && (
        <div className="grid gap-2 text-sm text-slate-700">
          {lost ? (
            <p className="text-red-700">
              Two checks in a row{d.lostAt && ` (the last on ${formatDateTime(d.lostAt)})`} found no proof that {d.domain} is yours. Its codes
              keep working for now: publish one of these again (and check the domain still points at Squarely). We check every few hours, and it is
              verified again once the proof is back.
            </p>
          ) : (
            <p>Publish one of these, then press Verify (DNS changes can take a few minutes to show):</p>
          )}
          <dl className="grid gap-1 rounded-md bg-slate-50 p-2 font-mono text-xs">
            <dt className="font-sans font-semibold">TXT record</dt>
            <dd className="break-all">
              {d.txtName} → {d.txtValue}
            </dd>
            <dt className="font-sans font-semibold">or a file answering over plain HTTP</dt>
            <dd className="break-all">
              {d.httpUrl} → {d.httpBody}
            </dd>
          </dl>
          {d.lastError && <p className="text-red-700">{d.lastError}</p>}
        </div>
      )}
      {verified && (
        <p className="text-xs text-slate-600">
          Verified by {d.method === 'dns' ? 'DNS' : 'HTTP'}
          {d.verifiedAt && ` on ${formatDate(d.verifiedAt)}`}. Codes print https://{d.domain}/d/…, and codes with a chosen
          short code https://{d.domain}/{'{short code}'}.
        </p>
      )}
      {!d.pointing && <PointHere domain={d} />}
      {(verified || lost) && mayManage && <LinksOnly domain={d} />}
    </li>
  )
}

/** The DNS record that points the domain here, and what the last pointing check found instead. */
function PointHere({ domain: d }: { domain: Domain }) {
  return (
    <div className="grid gap-2 text-sm text-slate-700">
      <p>
        Point {d.domain} here{d.status === 'pending' ? ' too' : ''} with one of these at your DNS provider; codes can print it once its requests reach
        Squarely:
      </p>
      <dl className="grid gap-1 rounded-md bg-slate-50 p-2 font-mono text-xs">
        <dt className="font-sans font-semibold">CNAME record</dt>
        <dd className="break-all" data-testid="cname-target">
          {d.domain} → {d.cnameTarget}
        </dd>
        {d.addresses.length > 0 && (
          <>
            <dt className="font-sans font-semibold">or A/AAAA records (a domain at the root of its zone cannot have a CNAME)</dt>
            <dd className="break-all">
              {d.domain} → {d.addresses.join(', ')}
            </dd>
          </>
        )}
      </dl>
      {d.pointError && <p className="text-red-700">{d.pointError}</p>}
    </div>
  )
}

/** Links only: the domain's / goes where the workspace says, and every unknown path is a 404 page rather than the app. */
function LinksOnly({ domain: d }: { domain: Domain }) {
  const save = useSetDomainLinks()
  const [rootUrl, setRootUrl] = useState(d.rootUrl)
  const [error, setError] = useState<string>()
  const id = `links-only-${d.id}`

  function submit(linksOnly: boolean, url: string) {
    setError(undefined)
    save.mutate(
      { id: d.id, linksOnly, rootUrl: url.trim() },
      {
        onSuccess: () => toast({ title: 'Domain saved', description: linksOnly ? `${d.domain} now serves links only.` : `${d.domain} sends other paths to the app.` }),
        onError: (e) => setError(fieldMessage(e, 'rootUrl') ?? serverMessage(e) ?? 'Failed to save the domain'),
      },
    )
  }

  return (
    <div className="grid gap-2 rounded-md bg-slate-50 p-3 text-sm">
      <div className="flex items-center justify-between gap-3">
        <Label htmlFor={id}>Links only</Label>
        <Switch id={id} checked={d.linksOnly} disabled={save.isPending} onCheckedChange={(on) => submit(on, rootUrl)} />
      </div>
      <p className="text-xs text-slate-600">
        Only your short links answer on {d.domain}: its home page redirects to the address below, and any other path shows a not-found page.
      </p>
      {d.linksOnly && (
        <form
          className="flex flex-col gap-2 sm:flex-row sm:items-end"
          onSubmit={(e) => {
            e.preventDefault()
            submit(true, rootUrl)
          }}
        >
          <div className="grid flex-1 gap-1">
            <Label htmlFor={`${id}-root`}>Home page redirects to</Label>
            <Input id={`${id}-root`} value={rootUrl} placeholder="https://www.example.com" onChange={(e) => setRootUrl(e.target.value)} />
          </div>
          <Button type="submit" size="sm" disabled={save.isPending}>
            Save
          </Button>
        </form>
      )}
      {error && <p className="text-red-700">{error}</p>}
    </div>
  )
}
