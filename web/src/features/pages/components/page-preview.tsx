import type { PageTheme } from '../api/pages'
import type { PageType } from '../lib/page-types'

type Content = Record<string, unknown>

const str = (v: unknown) => (typeof v === 'string' ? v : '')
const rows = (v: unknown) => (Array.isArray(v) ? (v as Content[]) : [])
const imageSrc = (v: unknown) => (str(v) ? `${new URL(str(v), window.location.origin).pathname}/file` : '')

/**
 * The page as a phone shows it, beside the editor, updated as the user
 * types: the same parts the server renders (internal/pages), in a 390 px
 * frame. The saved page is the server's rendering; this is its likeness.
 */
function Btn({ children, alt, theme }: { children: string; alt?: boolean; theme: PageTheme }) {
  const style = alt ? { border: `2px solid ${theme.accentColor}`, color: theme.fgColor } : { background: theme.accentColor, color: '#fff' }
  return (
    <span className="my-2 block rounded-xl px-4 py-3 text-center font-semibold" style={style}>
      {children}
    </span>
  )
}

export function PagePreview({ type, title, theme, content }: { type: PageType; title: string; theme: PageTheme; content: Content }) {
  let body
  switch (type) {
    case 'vcard': {
      const photo = imageSrc(content.photoUrl)
      body = (
        <>
          <div className="text-center">
            {photo && <img src={photo} alt="" className="mx-auto mb-2 size-24 rounded-full object-cover" />}
            <h2 className="text-2xl font-bold">{`${str(content.firstName)} ${str(content.lastName)}`.trim() || 'Your name'}</h2>
            <p className="opacity-80">{[str(content.jobTitle), str(content.company)].filter(Boolean).join(' · ')}</p>
          </div>
          <Btn theme={theme}>Save contact</Btn>
          {rows(content.phones).filter((p) => str(p.number)).map((p, i) => <Btn theme={theme} key={`p${i}`} alt>{`Call ${str(p.number)}`}</Btn>)}
          {rows(content.emails).filter((e) => str(e.address)).map((e, i) => <Btn theme={theme} key={`e${i}`} alt>{`E-mail ${str(e.address)}`}</Btn>)}
          {str(content.website) && <Btn theme={theme} alt>Website</Btn>}
        </>
      )
      break
    }
    case 'links':
      body = (
        <>
          <h2 className="text-center text-2xl font-bold">{str(content.title) || title}</h2>
          <p className="text-center">{str(content.bio)}</p>
          {rows(content.links).map((l, i) => <Btn theme={theme} key={i}>{str(l.label) || 'Link'}</Btn>)}
        </>
      )
      break
    case 'menu':
      body = (
        <>
          <h2 className="text-2xl font-bold">{str(content.title) || title}</h2>
          <ul>
            {rows(content.items).map((it, i) => (
              <li key={i} className="flex justify-between gap-3 border-b border-slate-300/40 py-2">
                <span>
                  <strong>{str(it.name) || 'Dish'}</strong>
                  <br />
                  <span className="text-sm opacity-80">{str(it.description)}</span>
                </span>
                <span>{str(it.price) && `${str(it.price)} ${str(it.currency)}`}</span>
              </li>
            ))}
          </ul>
        </>
      )
      break
    case 'gallery':
      body = (
        <>
          <h2 className="text-2xl font-bold">{str(content.title) || title}</h2>
          {rows(content.images).map((im, i) => (
            <figure key={i} className="mb-3">
              {imageSrc(im.url) && <img src={imageSrc(im.url)} alt={str(im.alt)} className="rounded-xl" />}
              <figcaption className="text-sm">{str(im.caption)}</figcaption>
            </figure>
          ))}
        </>
      )
      break
    case 'coupon':
      body = (
        <>
          <h2 className="text-2xl font-bold">{str(content.headline) || 'Your offer'}</h2>
          <p>{str(content.description)}</p>
          <Btn theme={theme}>Show code</Btn>
          {str(content.validUntil) && <p className="text-sm opacity-80">Valid until {str(content.validUntil)}</p>}
        </>
      )
      break
    case 'event':
      body = (
        <>
          <h2 className="text-2xl font-bold">{str(content.title) || 'Your event'}</h2>
          <p className="font-semibold">
            {str(content.start).replace('T', ' ')} – {str(content.end).replace('T', ' ')} ({str(content.timeZone)})
          </p>
          <p>{[str(content.venue), str(content.address)].filter(Boolean).join(', ')}</p>
          <Btn theme={theme}>Add to calendar</Btn>
          <Btn theme={theme} alt>Add to Google Calendar</Btn>
        </>
      )
      break
    case 'app':
      body = (
        <>
          <h2 className="text-center text-2xl font-bold">{str(content.name) || 'Your app'}</h2>
          <p className="text-center">{str(content.description)}</p>
          {str(content.appStoreUrl) && <Btn theme={theme}>Download on the App Store</Btn>}
          {str(content.googlePlayUrl) && <Btn theme={theme}>Get it on Google Play</Btn>}
        </>
      )
      break
    case 'business':
      body = (
        <>
          <h2 className="text-center text-2xl font-bold">{str(content.name) || 'Your business'}</h2>
          <p>{str(content.about)}</p>
          {str(content.phone) && <Btn theme={theme}>{`Call ${str(content.phone)}`}</Btn>}
          {rows(content.links).map((l, i) => <Btn theme={theme} key={i} alt>{str(l.label) || 'Link'}</Btn>)}
        </>
      )
      break
  }
  return (
    <figure aria-label="Phone preview" className="sticky top-4 mx-auto w-[390px] max-w-full">
      <div
        className="h-[700px] overflow-y-auto rounded-[2rem] border-8 border-slate-800 px-4 py-6 shadow-lg"
        style={{ background: theme.bgColor, color: theme.fgColor }}
        aria-hidden="true"
      >
        {body}
      </div>
      <figcaption className="mt-2 text-center text-sm text-slate-600">Preview at phone size (390 px)</figcaption>
    </figure>
  )
}
