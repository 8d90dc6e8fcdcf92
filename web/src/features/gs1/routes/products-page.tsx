import { useState, type FormEvent } from 'react'
import { Alert } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { TextField } from '@/components/ui/form-field'
import { NativeSelect } from '@/components/ui/native-select'
import { Spinner } from '@/components/ui/spinner'
import { fieldMessage, serverMessage } from '@/lib/api-client'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'
import { toast } from '@/lib/use-toast'
import { can, useActiveWorkspace } from '@/lib/workspace'
import { WorkspacePage } from '@/features/workspaces'
import { linkTypes, useCreateProduct, useDeleteProduct, useProducts, useRecallLot, useUpdateProduct, type Product, type ProductLink } from '../api/products'
import { gtinFeedback } from '../lib/gs1-rules'
import { Gs1ScanTable } from '@/features/analytics'

const failed = (title: string) => (error: unknown) =>
  toast({ title, description: serverMessage(error) ?? 'Please try again.', variant: 'destructive' })

/** /workspace/products: the workspace's GS1 products, their links by type and language, lots and recalls. */
export function ProductsPage() {
  usePageTitle(siteTitle('Products'))
  const workspace = useActiveWorkspace()
  if (!workspace) return <Spinner />
  const editor = can(workspace.role, 'editCodes')
  return (
    <WorkspacePage workspace={workspace} title="Products">
      <div key={workspace.id} className="grid gap-6">
        {editor ? <NewProduct /> : <Alert>You can see the products of {workspace.name}; editors and admins change them.</Alert>}
        <ProductList editor={editor} />
        <ScanTable />
      </div>
    </WorkspacePage>
  )
}

function NewProduct() {
  const create = useCreateProduct()
  const [gtin, setGtin] = useState('')
  const [name, setName] = useState('')
  const [href, setHref] = useState('')
  const feedback = gtinFeedback(gtin)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    create.mutate(
      { gtin: gtin.trim(), name, links: [{ linkType: 'gs1:defaultLink', href, title: name }] },
      {
        onSuccess: () => {
          setGtin('')
          setName('')
          setHref('')
        },
      },
    )
  }
  const err = (f: string) => (create.error ? fieldMessage(create.error, f) : undefined)
  return (
    <Card>
      <CardHeader>
        <CardTitle>New product</CardTitle>
        <CardDescription>
          A product's GS1 Digital Link codes open its default link; add links by type and language, and lots with their own links.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} className="grid gap-4 sm:grid-cols-3">
          <TextField id="gs1-new-gtin" label="GTIN" value={gtin} onChange={(e) => setGtin(e.target.value)} inputMode="numeric" error={err('gtin')}>
            {feedback && <p className={feedback.ok ? 'text-xs text-emerald-700' : 'text-xs text-red-600'}>{feedback.text}</p>}
          </TextField>
          <TextField id="gs1-new-name" label="Product name" value={name} onChange={(e) => setName(e.target.value)} error={err('name')} />
          <TextField id="gs1-new-href" label="Default link" value={href} onChange={(e) => setHref(e.target.value)} placeholder="https://example.com/product" error={err('links[0].href')} />
          <div className="sm:col-span-3">
            <Button type="submit" disabled={create.isPending}>
              Add product
            </Button>
            {create.error && !err('gtin') && !err('name') && !err('links[0].href') && (
              <p className="mt-2 text-sm text-red-600">{serverMessage(create.error)}</p>
            )}
          </div>
        </form>
      </CardContent>
    </Card>
  )
}

function ProductList({ editor }: { editor: boolean }) {
  const products = useProducts()
  if (products.isPending) return <Spinner label="Loading products..." />
  if (products.isError) return <Alert variant="destructive">{serverMessage(products.error) ?? 'Failed to load the products.'}</Alert>
  if (products.data.length === 0) return <p className="text-sm text-slate-600">No products yet.</p>
  return (
    <ul className="grid gap-4" aria-label="Products">
      {products.data.map((p) => (
        <li key={p.gtin}>
          <ProductCard product={p} editor={editor} />
        </li>
      ))}
    </ul>
  )
}

/** Links grouped by type, each with its language. */
function LinkList({ links, label }: { links: ProductLink[]; label: string }) {
  if (links.length === 0) return <p className="text-sm text-slate-500">No links.</p>
  return (
    <ul className="grid gap-1 text-sm" aria-label={label}>
      {[...links]
        .sort((a, b) => a.linkType.localeCompare(b.linkType) || (a.language ?? '').localeCompare(b.language ?? ''))
        .map((l, i) => (
          <li key={i} className="flex flex-wrap items-center gap-2">
            <Badge tone="violet">{l.linkType}</Badge>
            {l.language && <Badge tone="sky">{l.language}</Badge>}
            <a href={l.href} className="break-all text-primary hover:underline" target="_blank" rel="noreferrer">
              {l.title || l.href}
            </a>
          </li>
        ))}
    </ul>
  )
}

function ProductCard({ product, editor }: { product: Product; editor: boolean }) {
  const update = useUpdateProduct()
  const remove = useDeleteProduct()
  const recall = useRecallLot()
  const [link, setLink] = useState<ProductLink>({ linkType: 'gs1:pip', href: '', title: '', language: '' })
  const [lot, setLot] = useState('')
  const [recallHref, setRecallHref] = useState('')
  const addLink = (e: FormEvent) => {
    e.preventDefault()
    const added = { ...link, language: link.language?.trim() || undefined }
    update.mutate({ ...product, links: [...product.links, added] }, {
      onSuccess: () => setLink({ linkType: 'gs1:pip', href: '', title: '', language: '' }),
      onError: failed('Failed to add the link'),
    })
  }
  const recallLot = (e: FormEvent) => {
    e.preventDefault()
    recall.mutate(
      { gtin: product.gtin, lot: lot.trim(), href: recallHref.trim() },
      {
        onSuccess: () => {
          toast({ title: `Lot ${lot.trim()} recalled`, description: 'Scans of this lot now open the recall notice.' })
          setLot('')
          setRecallHref('')
        },
        onError: failed('Failed to recall the lot'),
      },
    )
  }
  const id = `gs1-${product.gtin}`
  return (
    <Card>
      <CardHeader>
        <CardTitle>{product.name}</CardTitle>
        <CardDescription>GTIN {product.gtin}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <LinkList links={product.links} label={`Links of ${product.name}`} />
        {product.lots.length > 0 && (
          <div className="grid gap-2">
            <h3 className="text-sm font-semibold text-slate-800">Lots</h3>
            {product.lots.map((l) => (
              <div key={l.lot} className="grid gap-1 rounded-lg border border-slate-200 p-3">
                <p className="text-sm font-medium">
                  Lot {l.lot}
                  {l.links.some((x) => x.linkType === 'gs1:recallStatus') && (
                    <Badge tone="red" className="ml-2">
                      Recalled
                    </Badge>
                  )}
                </p>
                <LinkList links={l.links} label={`Links of lot ${l.lot}`} />
              </div>
            ))}
          </div>
        )}
        {editor && (
          <>
            <form onSubmit={addLink} className="grid gap-3 sm:grid-cols-5" aria-label={`Add a link to ${product.name}`}>
              <div className="grid gap-2">
                <label htmlFor={`${id}-type`} className="text-sm font-medium">
                  Link type
                </label>
                <NativeSelect id={`${id}-type`} value={link.linkType} onChange={(e) => setLink({ ...link, linkType: e.target.value })}>
                  {linkTypes.map((t) => (
                    <option key={t} value={t}>
                      {t}
                    </option>
                  ))}
                </NativeSelect>
              </div>
              <TextField id={`${id}-href`} label="Link" value={link.href} onChange={(e) => setLink({ ...link, href: e.target.value })} />
              <TextField id={`${id}-title`} label="Title" value={link.title} onChange={(e) => setLink({ ...link, title: e.target.value })} />
              <TextField id={`${id}-lang`} label="Language" placeholder="en" value={link.language} onChange={(e) => setLink({ ...link, language: e.target.value })} />
              <div className="flex items-end">
                <Button type="submit" variant="outline" disabled={update.isPending}>
                  Add link
                </Button>
              </div>
            </form>
            <form onSubmit={recallLot} className="grid gap-3 sm:grid-cols-3" aria-label={`Recall a lot of ${product.name}`}>
              <TextField id={`${id}-lot`} label="Lot" value={lot} onChange={(e) => setLot(e.target.value)} />
              <TextField id={`${id}-recall`} label="Recall notice" placeholder="https://example.com/recall" value={recallHref} onChange={(e) => setRecallHref(e.target.value)} />
              <div className="flex items-end">
                <Button type="submit" variant="destructive" disabled={recall.isPending}>
                  Recall lot
                </Button>
              </div>
            </form>
            <div>
              <Button type="button" variant="ghost" onClick={() => remove.mutate(product.gtin, { onError: failed('Failed to delete the product') })}>
                Delete product
              </Button>
            </div>
          </>
        )}
      </CardContent>
    </Card>
  )
}

function ScanTable() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Scans by GTIN and lot</CardTitle>
        <CardDescription>Resolved scans of the last 30 days, by GTIN, lot and link type. No address or device is kept.</CardDescription>
      </CardHeader>
      <CardContent>
        <Gs1ScanTable caption="Scans by GTIN and lot" />
      </CardContent>
    </Card>
  )
}
