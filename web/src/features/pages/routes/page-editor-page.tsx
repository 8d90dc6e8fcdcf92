import { useQuery } from '@tanstack/react-query'
import { useEffect, useState, type FormEvent } from 'react'
import { Link, useNavigate, useParams } from 'react-router'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { FieldError } from '@/components/ui/field-error'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { NativeSelect } from '@/components/ui/native-select'
import { Spinner } from '@/components/ui/spinner'
import { serverFieldErrors, serverMessage } from '@/lib/api-client'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'
import { toast } from '@/lib/use-toast'
import { useActiveWorkspace } from '@/lib/workspace'
import { WorkspacePage } from '@/features/workspaces'
import { createPageCode, usePage, useSavePage, type HostedPage, type PageCode, type PageTheme } from '../api/pages'
import { fieldId, PageFields } from '../components/page-fields'
import { PagePreview } from '../components/page-preview'
import { cleanContent, emptyContent, isPageType, pageTypeLabel, type PageType } from '../lib/page-types'

const defaultTheme: PageTheme = { fgColor: '#0f172a', bgColor: '#ffffff', accentColor: '#2563eb' }

interface Kit {
  id: number
  name: string
  fgColor: string
  bgColor: string
}

/** /pages/new/:type — a new page and the dynamic code that opens it; /pages/:id/edit — an existing page. */
export function PageEditorPage() {
  const params = useParams()
  const id = params.id ? Number(params.id) : undefined
  const existing = usePage(id)
  const workspace = useActiveWorkspace()
  const type = id === undefined ? params.type : existing.data?.type
  usePageTitle(siteTitle(isPageType(type) ? pageTypeLabel(type) : 'Page'))
  if (!workspace || (id !== undefined && existing.isPending)) return <Spinner />
  if (id !== undefined && existing.isError) return <Alert variant="destructive">{serverMessage(existing.error) ?? 'Page not found'}</Alert>
  if (!isPageType(type)) return <Alert variant="destructive">Unknown page type</Alert>
  return (
    <WorkspacePage workspace={workspace} title={id === undefined ? `New ${pageTypeLabel(type)}` : `Edit ${existing.data?.title ?? ''}`}>
      <Editor key={id ?? type} type={type} page={existing.data} />
    </WorkspacePage>
  )
}

function Editor({ type, page }: { type: PageType; page?: HostedPage }) {
  const navigate = useNavigate()
  const [title, setTitle] = useState(page?.title ?? '')
  const [slug, setSlug] = useState(page?.slug ?? '')
  const [language, setLanguage] = useState(page?.language ?? (navigator.language || 'en'))
  const [theme, setTheme] = useState<PageTheme>(page?.theme ?? defaultTheme)
  const [content, setContent] = useState<Record<string, unknown>>(page?.content ?? emptyContent(type))
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [message, setMessage] = useState('')
  const [made, setMade] = useState<{ page: HostedPage; code: PageCode } | null>(null)
  const save = useSavePage()
  const kits = useQuery<Kit[]>({ queryKey: ['/api/brand-kits'] })

  // The first error's field takes the focus, so keyboard users land on it.
  useEffect(() => {
    const first = Object.keys(errors)[0]
    if (first) document.getElementById(fieldId(first))?.focus()
  }, [errors])

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    setErrors({})
    setMessage('')
    try {
      const saved = await save.mutateAsync({
        id: page?.id,
        page: { type, title, slug: slug || undefined, language, theme, content: cleanContent(type, content) },
      })
      if (page) {
        toast({ title: 'Page saved', description: 'The next scan shows the change.' })
        navigate('/pages')
        return
      }
      const code = await createPageCode(saved.id, title)
      setMade({ page: saved, code })
    } catch (err) {
      setErrors(serverFieldErrors(err) ?? {})
      setMessage(serverMessage(err) ?? 'The page could not be saved.')
    }
  }

  if (made) {
    const image = `/api/dynamic-qrcodes/${made.code.id}/image?format=png&size=600`
    return (
      <Card>
        <CardHeader>
          <CardTitle>Your {pageTypeLabel(type)} is live</CardTitle>
          <CardDescription>
            The code opens {made.page.url}. Edit the page at any time: printed codes show the change on their next scan.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid justify-items-start gap-4">
          <img src={image} alt={`QR code for ${made.page.title}`} className="size-48" />
          <div className="flex flex-wrap gap-2">
            <Button asChild>
              <a href={`${image}&download=1`} download>
                Download PNG
              </a>
            </Button>
            <Button asChild variant="outline">
              <a href={made.code.shortUrl} target="_blank" rel="noreferrer">
                Open the page
              </a>
            </Button>
            <Button asChild variant="outline">
              <Link to="/pages">All pages</Link>
            </Button>
          </div>
        </CardContent>
      </Card>
    )
  }

  const colour = (key: 'fgColor' | 'bgColor' | 'accentColor', label: string) => (
    <div className="grid gap-1.5">
      <Label htmlFor={fieldId(`theme.${key}`)}>{label}</Label>
      <input
        id={fieldId(`theme.${key}`)}
        type="color"
        className="h-10 w-20 rounded border border-slate-300"
        value={theme[key]}
        onChange={(e) => setTheme({ ...theme, [key]: e.target.value, brandKitId: undefined })}
      />
      <FieldError id={fieldId(`theme.${key}`) + '-error'}>{errors[`theme.${key}`]}</FieldError>
    </div>
  )

  return (
    <div className="grid gap-6 lg:grid-cols-[1fr_420px]">
      <form onSubmit={submit} className="grid gap-6" aria-label={`${pageTypeLabel(type)} editor`} noValidate>
        {message && (
          <Alert variant="destructive" role="alert">
            {message}
            {Object.keys(errors).length > 0 && (
              <ul className="mt-2 list-disc pl-5">
                {Object.entries(errors).map(([path, msg]) => (
                  <li key={path}>
                    <a href={`#${fieldId(path)}`} className="underline">
                      {path}
                    </a>
                    : {msg}
                  </li>
                ))}
              </ul>
            )}
          </Alert>
        )}
        <Card>
          <CardHeader>
            <CardTitle>Page</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-4">
            <div className="grid gap-1.5">
              <Label htmlFor={fieldId('title')}>Page title</Label>
              <Input id={fieldId('title')} value={title} required onChange={(e) => setTitle(e.target.value)} aria-invalid={errors.title ? true : undefined} />
              <FieldError id={fieldId('title') + '-error'}>{errors.title}</FieldError>
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor={fieldId('slug')}>Address (optional: /p/…)</Label>
              <Input id={fieldId('slug')} value={slug} placeholder="drawn at random" onChange={(e) => setSlug(e.target.value)} />
              <FieldError id={fieldId('slug') + '-error'}>{errors.slug}</FieldError>
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor={fieldId('language')}>Language</Label>
              <Input id={fieldId('language')} value={language} onChange={(e) => setLanguage(e.target.value)} />
              <FieldError id={fieldId('language') + '-error'}>{errors.language}</FieldError>
            </div>
            <div className="flex flex-wrap gap-4">
              {colour('fgColor', 'Text colour')}
              {colour('bgColor', 'Background')}
              {colour('accentColor', 'Buttons')}
              {kits.data && kits.data.length > 0 && (
                <div className="grid gap-1.5">
                  <Label htmlFor={fieldId('theme.brandKitId')}>Brand kit</Label>
                  <NativeSelect
                    id={fieldId('theme.brandKitId')}
                    value={theme.brandKitId ?? ''}
                    onChange={(e) => {
                      const kit = kits.data.find((k) => k.id === Number(e.target.value))
                      setTheme(kit ? { ...theme, brandKitId: kit.id, fgColor: kit.fgColor.toLowerCase(), accentColor: kit.fgColor.toLowerCase(), bgColor: kit.bgColor.toLowerCase() } : { ...theme, brandKitId: undefined })
                    }}
                  >
                    <option value="">None</option>
                    {kits.data.map((k) => (
                      <option key={k.id} value={k.id}>
                        {k.name}
                      </option>
                    ))}
                  </NativeSelect>
                </div>
              )}
            </div>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>{pageTypeLabel(type)}</CardTitle>
          </CardHeader>
          <CardContent>
            <PageFields type={type} content={content} onChange={setContent} errors={errors} />
          </CardContent>
        </Card>
        <div className="flex gap-2">
          <Button type="submit" disabled={save.isPending}>
            {page ? 'Save page' : 'Save and create QR code'}
          </Button>
          <Button asChild variant="outline">
            <Link to="/pages">Cancel</Link>
          </Button>
        </div>
      </form>
      <PagePreview type={type} title={title} theme={theme} content={content} />
    </div>
  )
}
