import { ArrowRight, BarChart3, Clock, Layers, Palette, PencilLine, QrCode, ShieldCheck, Sparkles } from 'lucide-react'
import { Link } from 'react-router'
import { LogoMark } from '@/components/logo'
import { Button } from '@/components/ui/button'
import { siteTitle, usePageTitle } from '@/lib/use-page-title'

const stats = [
  { value: '10M+', label: 'QR codes generated' },
  { value: '50K+', label: 'Happy customers' },
  { value: '99.9%', label: 'Uptime' },
  { value: '24/7', label: 'Support' },
]

const features = [
  { icon: QrCode, title: 'Every kind of code', text: 'Websites, contact cards, e-mail, locations, social profiles, apps, reviews and more.' },
  { icon: Palette, title: 'Styled to match your brand', text: 'Pick colours, dot and corner shapes, add your logo and a "SCAN ME" frame.' },
  { icon: PencilLine, title: 'Dynamic codes', text: 'Change where a printed code points at any time, without reprinting it.' },
  { icon: BarChart3, title: 'Scan analytics', text: 'See how often each dynamic code is scanned and which ones perform best.' },
  { icon: Layers, title: 'Bulk generation', text: 'Turn a list of links into a folder of ready-to-print codes in one go.' },
  { icon: ShieldCheck, title: 'Free forever for static codes', text: 'Static codes never expire and download as crisp PNG files.' },
]

export function LandingPage() {
  usePageTitle(siteTitle('QR Code Generator'))
  return (
    <>
      <section className="relative overflow-hidden bg-gradient-to-b from-primary-50 via-white to-white">
        <div className="mx-auto grid max-w-6xl items-center gap-12 px-4 py-16 sm:px-6 md:grid-cols-2 md:py-24">
          <div>
            <span className="inline-flex items-center gap-2 rounded-full border border-primary-100 bg-white px-3 py-1 text-sm font-medium text-secondary shadow-sm">
              <Sparkles className="size-4 text-primary" aria-hidden="true" />
              Static QR codes are free forever
            </span>
            <h1 className="mt-6 text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl lg:text-6xl">
              QR codes your customers <span className="text-primary">actually scan</span>
            </h1>
            <p className="mt-6 max-w-xl text-lg text-slate-600">
              Create beautiful, on-brand QR codes for links, contact cards, menus and more. Edit them after printing and
              see every scan.
            </p>
            <div className="mt-8 flex flex-col gap-3 sm:flex-row">
              <Button asChild size="lg">
                <a href="#qr-generator">
                  Create your QR code <ArrowRight aria-hidden="true" />
                </a>
              </Button>
              <Button asChild size="lg" variant="outline">
                <Link to="/auth">Start Free Trial</Link>
              </Button>
            </div>
            <p className="mt-4 text-sm text-slate-500">3-day free trial of premium features · No credit card required</p>
          </div>
          <HeroArt />
        </div>
      </section>

      <section aria-label="Squarely in numbers" className="border-y border-slate-200 bg-white">
        <dl className="mx-auto grid max-w-6xl grid-cols-2 gap-8 px-4 py-10 sm:px-6 md:grid-cols-4">
          {stats.map(({ value, label }) => (
            <div key={label} className="text-center">
              <dt className="sr-only">{label}</dt>
              <dd className="text-3xl font-extrabold text-secondary sm:text-4xl">{value}</dd>
              <dd className="mt-1 text-sm font-medium text-slate-600">{label}</dd>
            </div>
          ))}
        </dl>
      </section>

      <section className="mx-auto max-w-6xl px-4 py-20 sm:px-6">
        <div className="mx-auto max-w-2xl text-center">
          <h2 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Everything a QR code should do</h2>
          <p className="mt-4 text-lg text-slate-600">From a single link on a flyer to thousands of codes on packaging.</p>
        </div>
        <div className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {features.map(({ icon: Icon, title, text }) => (
            <div key={title} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm transition hover:shadow-md">
              <span className="grid size-11 place-items-center rounded-xl bg-primary-50 text-primary">
                <Icon className="size-6" aria-hidden="true" />
              </span>
              <h3 className="mt-4 text-lg font-semibold text-slate-900">{title}</h3>
              <p className="mt-2 text-slate-600">{text}</p>
            </div>
          ))}
        </div>
      </section>

      <section id="qr-generator" className="scroll-mt-20 bg-slate-50 py-20">
        <div className="mx-auto max-w-3xl px-4 text-center sm:px-6">
          <span className="inline-flex items-center gap-2 rounded-full bg-primary-100 px-3 py-1 text-sm font-medium text-secondary">
            <Clock className="size-4" aria-hidden="true" />
            Coming soon
          </span>
          <h2 className="mt-4 text-3xl font-bold tracking-tight text-slate-900">QR Code Generator</h2>
          <p className="mt-4 text-lg text-slate-600">
            The online generator is not ready yet: we are still building it. Create a free account now and you will be
            able to save your codes as soon as it opens.
          </p>
          <Button asChild size="lg" className="mt-8">
            <Link to="/auth?mode=register">Create a free account</Link>
          </Button>
        </div>
      </section>
    </>
  )
}

/** A decorative, framed brand mark in the style of the product's "SCAN ME" frames; not a scannable code. */
function HeroArt() {
  return (
    <div aria-hidden="true" className="relative mx-auto w-full max-w-[13rem] md:max-w-xs">
      <div className="absolute -inset-8 rounded-[3rem] bg-gradient-to-br from-primary/30 to-secondary/20 blur-2xl" />
      <div className="relative rounded-3xl bg-secondary p-4 pb-0 shadow-2xl">
        <div className="rounded-2xl bg-white p-6">
          <LogoMark className="size-full" />
        </div>
        <p className="py-4 text-center text-lg font-bold tracking-[0.3em] text-white">SCAN ME</p>
      </div>
    </div>
  )
}
