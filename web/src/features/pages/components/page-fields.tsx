import { Plus, Trash2 } from 'lucide-react'
import { useState, type ReactNode } from 'react'
import { Button } from '@/components/ui/button'
import { FieldError } from '@/components/ui/field-error'
import { FileInput, Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { NativeSelect } from '@/components/ui/native-select'
import { serverMessage } from '@/lib/api-client'
import { uploadImage, uploadMenuFile } from '../api/pages'
import { dietaryTags, maxDaySpans, weekdays, type PageType } from '../lib/page-types'

/** A field of a page's content: its key, label and input. */
interface Field {
  key: string
  label: string
  kind?: 'text' | 'textarea' | 'url' | 'email' | 'tel' | 'datetime' | 'date' | 'image' | 'file' | 'tags' | 'zone'
  options?: readonly string[]
  hint?: string
}

/** A list of rows in a page's content (phones, links, menu items…). */
interface ListSpec {
  key: string
  label: string
  item: string
  max: number
  fields: Field[]
  empty: Record<string, unknown>
}

const socials: ListSpec = { key: 'socials', label: 'Social profiles', item: 'profile', max: 10, fields: [{ key: 'network', label: 'Network' }, { key: 'url', label: 'Profile URL', kind: 'url' }], empty: { network: '', url: '' } }
const links = (max: number): ListSpec => ({ key: 'links', label: 'Links', item: 'link', max, fields: [{ key: 'label', label: 'Label' }, { key: 'url', label: 'URL (https, tel:, mailto:, sms:)', kind: 'url' }], empty: { label: '', url: '' } })

const specs: Record<PageType, { fields: Field[]; lists: ListSpec[]; address?: boolean; hours?: boolean }> = {
  vcard: {
    fields: [
      { key: 'firstName', label: 'First name' },
      { key: 'lastName', label: 'Last name' },
      { key: 'photoUrl', label: 'Photo', kind: 'image' },
      { key: 'jobTitle', label: 'Job title' },
      { key: 'company', label: 'Company' },
      { key: 'website', label: 'Website', kind: 'url' },
      { key: 'note', label: 'About', kind: 'textarea' },
    ],
    lists: [
      { key: 'phones', label: 'Phones', item: 'phone', max: 10, fields: [{ key: 'type', label: 'Kind', options: ['cell', 'work', 'home', 'fax', 'other'] }, { key: 'number', label: 'Number', kind: 'tel' }], empty: { type: 'cell', number: '' } },
      { key: 'emails', label: 'E-mail addresses', item: 'e-mail', max: 10, fields: [{ key: 'type', label: 'Kind', options: ['work', 'home', 'other'] }, { key: 'address', label: 'Address', kind: 'email' }], empty: { type: 'work', address: '' } },
      socials,
    ],
    address: true,
  },
  links: {
    fields: [{ key: 'title', label: 'Heading' }, { key: 'avatarUrl', label: 'Picture', kind: 'image' }, { key: 'bio', label: 'Bio', kind: 'textarea' }],
    lists: [links(50), socials],
  },
  menu: {
    fields: [{ key: 'title', label: 'Heading' }, { key: 'description', label: 'Description', kind: 'textarea' }],
    lists: [
      {
        key: 'items',
        label: 'Dishes',
        item: 'dish',
        max: 300,
        fields: [
          { key: 'section', label: 'Section' },
          { key: 'name', label: 'Name' },
          { key: 'description', label: 'Description' },
          { key: 'price', label: 'Price', hint: 'e.g. 12.50' },
          { key: 'currency', label: 'Currency', hint: 'e.g. EUR' },
          { key: 'dietary', label: 'Dietary tags', kind: 'tags', options: dietaryTags },
        ],
        empty: { section: '', name: '', description: '', price: '', currency: 'EUR', dietary: [] },
      },
      { key: 'files', label: 'Menu files (PDF or image)', item: 'file', max: 10, fields: [{ key: 'label', label: 'Label' }, { key: 'url', label: 'File', kind: 'file' }], empty: { label: '', url: '' } },
    ],
  },
  gallery: {
    fields: [{ key: 'title', label: 'Heading' }, { key: 'description', label: 'Description', kind: 'textarea' }],
    lists: [{ key: 'images', label: 'Images', item: 'image', max: 30, fields: [{ key: 'url', label: 'Image', kind: 'image' }, { key: 'caption', label: 'Caption' }, { key: 'alt', label: 'Description for screen readers' }], empty: { url: '', caption: '', alt: '' } }],
  },
  coupon: {
    fields: [
      { key: 'headline', label: 'Headline' },
      { key: 'description', label: 'Description', kind: 'textarea' },
      { key: 'code', label: 'Code' },
      { key: 'validUntil', label: 'Valid until', kind: 'date' },
      { key: 'timeZone', label: 'Time zone', kind: 'zone' },
      { key: 'terms', label: 'Terms', kind: 'textarea' },
    ],
    lists: [],
  },
  event: {
    fields: [
      { key: 'title', label: 'Event name' },
      { key: 'start', label: 'Starts', kind: 'datetime' },
      { key: 'end', label: 'Ends', kind: 'datetime' },
      { key: 'timeZone', label: 'Time zone', kind: 'zone' },
      { key: 'venue', label: 'Venue' },
      { key: 'address', label: 'Address' },
      { key: 'description', label: 'Description', kind: 'textarea' },
    ],
    lists: [],
  },
  app: {
    fields: [
      { key: 'name', label: 'App name' },
      { key: 'description', label: 'Description', kind: 'textarea' },
      { key: 'iconUrl', label: 'Icon', kind: 'image' },
      { key: 'appStoreUrl', label: 'App Store URL', kind: 'url' },
      { key: 'googlePlayUrl', label: 'Google Play URL', kind: 'url' },
    ],
    lists: [],
  },
  business: {
    fields: [
      { key: 'name', label: 'Business name' },
      { key: 'logoUrl', label: 'Logo', kind: 'image' },
      { key: 'about', label: 'About', kind: 'textarea' },
      { key: 'phone', label: 'Phone', kind: 'tel' },
      { key: 'email', label: 'E-mail', kind: 'email' },
      { key: 'website', label: 'Website', kind: 'url' },
      { key: 'timeZone', label: 'Time zone', kind: 'zone' },
    ],
    lists: [links(50)],
    address: true,
    hours: true,
  },
}

type Content = Record<string, unknown>

/** The id of the input at a field path. */
export const fieldId = (path: string) => `page-${path.replaceAll('.', '-')}`

interface FieldsProps {
  type: PageType
  content: Content
  onChange: (c: Content) => void
  errors: Record<string, string>
}

/** The content fields of a page of type, labelled, with the server's errors by path. */
export function PageFields({ type, content, onChange, errors }: FieldsProps) {
  const spec = specs[type]
  const set = (key: string, value: unknown) => onChange({ ...content, [key]: value })
  return (
    <div className="grid gap-4">
      {spec.fields.map((f) => (
        <FieldInput key={f.key} field={f} path={`content.${f.key}`} value={content[f.key]} onChange={(v) => set(f.key, v)} errors={errors} />
      ))}
      {spec.address && (
        <fieldset className="grid gap-3 rounded-md border border-slate-200 p-3">
          <legend className="px-1 text-sm font-medium">Address</legend>
          {(['street', 'city', 'region', 'postalCode', 'country'] as const).map((k) => {
            const address = (content.address ?? {}) as Content
            const labels = { street: 'Street', city: 'City', region: 'Region', postalCode: 'Postal code', country: 'Country' }
            return (
              <FieldInput
                key={k}
                field={{ key: k, label: labels[k] }}
                path={`content.address.${k}`}
                value={address[k]}
                onChange={(v) => set('address', { ...address, [k]: v })}
                errors={errors}
              />
            )
          })}
        </fieldset>
      )}
      {spec.hours && <HoursFields hours={(content.hours ?? {}) as Record<string, { open: string; close: string }[]>} onChange={(h) => set('hours', h)} errors={errors} />}
      {spec.lists.map((list) => (
        <ListFields key={list.key} spec={list} rows={(content[list.key] ?? []) as Content[]} onChange={(rows) => set(list.key, rows)} errors={errors} />
      ))}
    </div>
  )
}

function FieldInput({ field, path, value, onChange, errors }: { field: Field; path: string; value: unknown; onChange: (v: unknown) => void; errors: Record<string, string> }) {
  const id = fieldId(path)
  const error = errors[path]
  const errorId = `${id}-error`
  const common = { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? errorId : undefined }
  const text = typeof value === 'string' ? value : ''
  if (field.kind === 'tags') {
    const chosen = Array.isArray(value) ? (value as string[]) : []
    return (
      <fieldset className="grid gap-1.5" aria-describedby={common['aria-describedby']}>
        <legend className="text-sm font-medium">{field.label}</legend>
        <div className="flex flex-wrap gap-x-4 gap-y-1">
          {field.options?.map((o) => (
            <label key={o} className="flex items-center gap-1.5 text-sm">
              <input
                type="checkbox"
                className="size-4"
                checked={chosen.includes(o)}
                onChange={(e) => onChange(e.target.checked ? field.options?.filter((t) => t === o || chosen.includes(t)) : chosen.filter((t) => t !== o))}
              />
              {o}
            </label>
          ))}
        </div>
        <FieldError id={errorId}>{error}</FieldError>
      </fieldset>
    )
  }
  let input: ReactNode
  if (field.options) {
    input = (
      <NativeSelect {...common} value={text} onChange={(e) => onChange(e.target.value)}>
        {field.options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </NativeSelect>
    )
  } else if (field.kind === 'textarea') {
    input = <textarea {...common} className="min-h-20 rounded-md border border-slate-300 px-3 py-2 text-sm" value={text} onChange={(e) => onChange(e.target.value)} />
  } else if (field.kind === 'image') {
    input = <ImageInput id={id} label={field.label} value={text} onChange={onChange} describedBy={common['aria-describedby']} />
  } else if (field.kind === 'file') {
    input = <ImageInput id={id} label={field.label} value={text} onChange={onChange} describedBy={common['aria-describedby']} file />
  } else {
    const types: Partial<Record<string, string>> = { url: 'url', email: 'email', tel: 'tel', datetime: 'datetime-local', date: 'date' }
    const type = types[field.kind ?? ''] ?? 'text'
    // An event's years as the server takes them (internal/pages: MinEventYear, MaxEventYear).
    const range = field.kind === 'datetime' ? { min: '1900-01-01T00:00', max: '2100-12-31T23:59' } : {}
    input = <Input {...common} {...range} type={type} value={text} placeholder={field.hint} onChange={(e) => onChange(e.target.value)} />
  }
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{field.label}</Label>
      {input}
      <FieldError id={errorId}>{error}</FieldError>
    </div>
  )
}

/**
 * An image field: the uploaded image's URL, set by choosing a file (POST /api/upload-image);
 * with file, a menu file, a PDF (POST /api/upload-pdf) or an image.
 */
function ImageInput({ id, label, value, onChange, describedBy, file: menuFile }: { id: string; label: string; value: string; onChange: (v: string) => void; describedBy?: string; file?: boolean }) {
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState('')
  return (
    <div className="grid gap-1.5">
      <FileInput
        id={id}
        accept={menuFile ? 'application/pdf,image/png,image/jpeg,image/webp' : 'image/png,image/jpeg,image/webp'}
        aria-describedby={describedBy}
        disabled={busy}
        onChange={async (e) => {
          const file = e.target.files?.[0]
          if (!file) return
          setBusy(true)
          setProblem('')
          try {
            onChange(await (menuFile ? uploadMenuFile(file) : uploadImage(file)))
          } catch (err) {
            setProblem(serverMessage(err) ?? 'The image could not be uploaded.')
          } finally {
            setBusy(false)
          }
        }}
      />
      {value && (
        <div className="flex items-center gap-2 text-sm">
          {menuFile && value.includes('/pdf/') ? (
            <span>PDF uploaded</span>
          ) : (
            <img src={`${new URL(value, window.location.origin).pathname}/file`} alt="" className="size-10 rounded object-cover" />
          )}
          <Button type="button" variant="outline" size="sm" onClick={() => onChange('')}>
            Remove {label.toLowerCase()}
          </Button>
        </div>
      )}
      {problem && <p className="text-sm text-red-700" role="alert">{problem}</p>}
    </div>
  )
}

function ListFields({ spec, rows, onChange, errors }: { spec: ListSpec; rows: Content[]; onChange: (rows: Content[]) => void; errors: Record<string, string> }) {
  return (
    <fieldset className="grid gap-3 rounded-md border border-slate-200 p-3">
      <legend className="px-1 text-sm font-medium">{spec.label}</legend>
      {errors[`content.${spec.key}`] && <FieldError id={fieldId(`content.${spec.key}`) + '-error'}>{errors[`content.${spec.key}`]}</FieldError>}
      {rows.map((row, i) => {
        const rowPath = `content.${spec.key}.${i}`
        return (
          <div key={i} className="grid gap-2 rounded border border-slate-100 p-2" role="group" aria-label={`${spec.item} ${i + 1}`}>
            {spec.fields.map((f) => (
              <FieldInput
                key={f.key}
                field={{ ...f, label: `${f.label} (${spec.item} ${i + 1})` }}
                path={`${rowPath}.${f.key}`}
                value={row[f.key]}
                onChange={(v) => onChange(rows.map((r, j) => (j === i ? { ...r, [f.key]: v } : r)))}
                errors={errors}
              />
            ))}
            <FieldError id={fieldId(rowPath) + '-error'}>{errors[rowPath]}</FieldError>
            <Button type="button" variant="outline" size="sm" className="justify-self-start" onClick={() => onChange(rows.filter((_, j) => j !== i))}>
              <Trash2 className="size-4" aria-hidden="true" /> Remove {spec.item} {i + 1}
            </Button>
          </div>
        )
      })}
      {rows.length < spec.max && (
        <Button type="button" variant="outline" size="sm" className="justify-self-start" onClick={() => onChange([...rows, { ...spec.empty }])}>
          <Plus className="size-4" aria-hidden="true" /> Add {spec.item}
        </Button>
      )}
    </fieldset>
  )
}

type Span = { open: string; close: string }

/** Opening hours: up to maxDaySpans intervals a day, each added and removed by its own button. */
function HoursFields({ hours, onChange, errors }: { hours: Record<string, Span[]>; onChange: (h: Record<string, Span[]>) => void; errors: Record<string, string> }) {
  const setDay = (key: string, spans: Span[]) => {
    const copy = Object.fromEntries(Object.entries(hours).filter(([day]) => day !== key))
    if (spans.length > 0) copy[key] = spans
    onChange(copy)
  }
  return (
    <fieldset className="grid gap-3 rounded-md border border-slate-200 p-3">
      <legend className="px-1 text-sm font-medium">Opening hours (a day without hours is closed)</legend>
      {weekdays.map(([key, name]) => {
        const spans = hours[key] ?? []
        return (
          <div key={key} className="grid gap-2" role="group" aria-label={name}>
            <span className="text-sm font-medium">{name}</span>
            {spans.length === 0 && <span className="text-sm text-slate-600">Closed</span>}
            {spans.map((span, i) => {
              const path = `content.hours.${key}.${i}`
              const which = spans.length > 1 ? ` (hours ${i + 1})` : ''
              const setSpan = (part: keyof Span, v: string) => setDay(key, spans.map((sp, j) => (j === i ? { ...sp, [part]: v } : sp)))
              return (
                <div key={i} className="grid grid-cols-[1fr_1fr_auto] items-start gap-2">
                  {(['open', 'close'] as const).map((part) => (
                    <div key={part}>
                      <Label htmlFor={fieldId(`${path}.${part}`)} className="sr-only">
                        {name} {part === 'open' ? 'opens' : 'closes'}
                        {which}
                      </Label>
                      <Input
                        id={fieldId(`${path}.${part}`)}
                        type="time"
                        value={span[part]}
                        aria-invalid={errors[`${path}.${part}`] ? true : undefined}
                        aria-describedby={errors[`${path}.${part}`] ? fieldId(`${path}.${part}`) + '-error' : undefined}
                        onChange={(e) => setSpan(part, e.target.value)}
                      />
                      <FieldError id={fieldId(`${path}.${part}`) + '-error'}>{errors[`${path}.${part}`]}</FieldError>
                    </div>
                  ))}
                  <Button type="button" variant="outline" size="sm" onClick={() => setDay(key, spans.filter((_, j) => j !== i))}>
                    <Trash2 className="size-4" aria-hidden="true" />
                    <span className="sr-only">
                      Remove {name} hours{which}
                    </span>
                  </Button>
                </div>
              )
            })}
            <FieldError id={fieldId(`content.hours.${key}`) + '-error'}>{errors[`content.hours.${key}`]}</FieldError>
            {spans.length < maxDaySpans && (
              <Button type="button" variant="outline" size="sm" className="justify-self-start" onClick={() => setDay(key, [...spans, { open: '', close: '' }])}>
                <Plus className="size-4" aria-hidden="true" /> Add hours for {name}
              </Button>
            )}
          </div>
        )
      })}
    </fieldset>
  )
}
