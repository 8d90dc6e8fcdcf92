import type { ReactNode } from 'react'
import { ArrowRight, BarChart3, Layers, Palette, PencilLine, QrCode, ShieldCheck, Sparkles } from 'lucide-react'
import { Link } from 'react-router'
import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from '@/components/ui/accordion'
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

interface LandingPageProps {
  /** The QR code generator, composed in by the app (features do not import each other). */
  generator?: ReactNode
  /** The free-trial offer with its e-mail form. */
  trialBanner?: ReactNode
}

const faqs = [
  {
    question: 'Are static QR codes really free?',
    answer: 'Yes. Static QR codes are free forever: create as many as you like and download them as PNG, with no account and no expiry.',
  },
  {
    question: 'What is the difference between static and dynamic QR codes?',
    answer: 'A static code holds its content directly and can never change. A dynamic code points to a short link, so you can change its destination after printing and see how often it is scanned.',
  },
  {
    question: 'Do my QR codes expire?',
    answer: 'Static codes never expire. Dynamic codes keep working as long as they are active in your account; you can pause and resume them at any time.',
  },
  {
    question: 'Can I add my logo and brand colours?',
    answer: 'Yes. Pick your colours, a second colour for a gradient, dot and corner shapes, a "SCAN ME" frame and your own logo or one of our presets. Logos and gradients need a free account.',
  },
  {
    question: 'What kinds of QR codes can I create?',
    answer: 'Websites, contact cards, payments, PDFs, social media profiles, image galleries, review pages, e-mail, locations and app downloads, with events, SMS and Bitcoin on the way.',
  },
  {
    question: 'How does the free trial work?',
    answer: 'Enter your e-mail address to unlock 3 days of premium features, including unlimited dynamic QR codes. No credit card is required.',
  },
  {
    question: 'Can I track how many people scan my code?',
    answer: 'Dynamic codes count every scan and show unique visitors, devices and trends over time in your dashboard.',
  },
  {
    question: 'Will my styled QR code still scan?',
    answer: 'Every code we draw is checked: colours with too little contrast or a logo too large for the error correction are refused with a clear reason instead of producing a code that will not scan.',
  },
]

export function LandingPage({ generator, trialBanner }: LandingPageProps) {
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
                <Link to="/auth?mode=register">Start Free Trial</Link>
              </Button>
            </div>
            <p className="mt-4 text-sm text-slate-500">3-day free trial of premium features · No credit card required</p>
          </div>
          <HeroArt />
        </div>
      </section>

      <section id="qr-generator" aria-label="QR code generator" className="scroll-mt-20 bg-slate-50 py-12 sm:py-16">
        <div className="mx-auto max-w-6xl px-4 sm:px-6">
          <div className="mb-8 max-w-2xl">
            <h2 className="text-3xl font-bold tracking-tight text-slate-900">Make a QR code in seconds</h2>
            <p className="mt-2 text-lg text-slate-600">
              Static QR codes are free forever and download as PNG, SVG or PDF: no account needed.
            </p>
          </div>
          {generator}
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

      <div className="mx-auto max-w-6xl px-4 pb-20 sm:px-6">{trialBanner}</div>

      <section aria-labelledby="landing-faq" className="bg-slate-50 py-20">
        <div className="mx-auto max-w-3xl px-4 sm:px-6">
          <h2 id="landing-faq" className="text-center text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
            Frequently asked questions
          </h2>
          <Accordion type="single" collapsible className="mt-10 rounded-2xl border border-slate-200 bg-white px-6 shadow-sm">
            {faqs.map(({ question, answer }, i) => (
              <AccordionItem key={question} value={`faq-${i}`} className="last:border-b-0">
                <AccordionTrigger>{question}</AccordionTrigger>
                <AccordionContent>{answer}</AccordionContent>
              </AccordionItem>
            ))}
          </Accordion>
        </div>
      </section>
    </>
  )
}

/**
 * A real code in the product's styles, framed like its "SCAN ME" frames: our
 * renderer drew it (web/public/codes/hero.svg, kept by internal/server
 * TestSampleCodes, which reads it back with zbarimg). Square, its size set
 * before it loads, so nothing moves when it arrives.
 */
function HeroArt() {
  return (
    <div className="relative mx-auto w-full max-w-[13rem] md:max-w-xs">
      <div className="absolute -inset-8 rounded-[3rem] bg-gradient-to-br from-primary/30 to-secondary/20 blur-2xl" />
      <div className="relative rounded-3xl bg-secondary p-4 pb-0 shadow-2xl">
        <div className="rounded-2xl bg-white p-6">
          <img src="/codes/hero.svg" alt="QR code for squarely.io" width={320} height={320} className="aspect-square size-full" />
        </div>
        <p aria-hidden="true" className="py-4 text-center text-lg font-bold tracking-[0.3em] text-white">
          SCAN ME
        </p>
      </div>
    </div>
  )
}
