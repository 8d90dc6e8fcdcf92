/** The Privacy and Terms pages: short and true to what Squarely stores and does. */
export interface LegalSection {
  heading: string
  paragraphs: string[]
}

export const LEGAL_UPDATED = 'November 2026'

export const privacySections: LegalSection[] = [
  {
    heading: 'What we store',
    paragraphs: [
      'Your account: e-mail address, name, a hash of your password (never the password itself) and, if you sign in with Google, your Google account id.',
      'Your codes: their content, style, uploaded logos, PDFs and images, and for dynamic codes the destination.',
      'Scans of dynamic codes: the time, a device, operating system and browser read from the user agent, and the referring page. This is what your analytics show.',
      'Generations and downloads made on the site, with the browser\u2019s user agent, so we can keep the service fair and working.',
      'Messages you send through the contact form and, if you subscribe, your address on the newsletter list.',
    ],
  },
  {
    heading: 'How we use it',
    paragraphs: [
      'To run the service: sign you in, keep your codes, forward scans and show you your analytics. We send e-mail for your account (such as a set-password link), answers to your messages and, if you subscribed, the newsletter.',
      'We do not sell your data and we do not show ads.',
    ],
  },
  {
    heading: 'How long we keep it',
    paragraphs: [
      'Your account, codes and uploads stay until you delete them or your account. Deleting your account deletes them.',
      'Each scan is kept as a single record for the retention period this Squarely installation sets (by default, as long as its code exists). Older scan records are deleted; what remains of them is the daily totals per code (scans, visitors, countries, devices, browsers and referring sites), so your analytics keep their counts.',
    ],
  },
  {
    heading: 'Cookies',
    paragraphs: ['We set one session cookie when you sign in. We do not use advertising or tracking cookies.'],
  },
  {
    heading: 'Your choices',
    paragraphs: [
      'You can delete codes at any time and delete your account from Account Settings. To leave the newsletter or ask what we hold about you, write to us through the contact page.',
      'You can download everything we keep for a workspace from its Export tab ("Download my data"; its owners and admins): its codes, uploads and scans, and its dynamic codes\u2019 redirects in forms a web server can serve without us.',
    ],
  },
]

export const termsSections: LegalSection[] = [
  {
    heading: 'Using Squarely',
    paragraphs: [
      'You may use Squarely to create QR codes for lawful purposes. You are responsible for what your codes point to: no malware, phishing, or content that breaks the law or others\u2019 rights.',
      'We may pause dynamic codes that are used for abuse, and close accounts that break these terms.',
    ],
  },
  {
    heading: 'Free and paid features',
    paragraphs: [
      'Static codes are free and keep working without us, since their content is in the pattern. Dynamic codes and analytics depend on our service and on your account: a paused or deleted dynamic code stops forwarding scans.',
      'Premium features are billed monthly through our payment provider; you can cancel at any time and keep the codes you made.',
    ],
  },
  {
    heading: 'Availability',
    paragraphs: [
      'We work hard to keep Squarely running and your codes forwarding, but we cannot promise the service is never interrupted. Test a code before you print it in large numbers.',
    ],
  },
  {
    heading: 'Changes',
    paragraphs: ['If we change these terms in a way that matters, we will say so on this page and by e-mail to account holders.'],
  },
]
