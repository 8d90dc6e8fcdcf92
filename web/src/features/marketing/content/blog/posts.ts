/** The blog's posts (spec 02 §3): static content, our own words. Bodies are the small markdown of lib/markdown. */

export const blogCategories = ['All', 'Marketing', 'Technology', 'Security', 'Industry', 'Analytics', 'Design', 'Shark Tips'] as const

export type BlogCategory = Exclude<(typeof blogCategories)[number], 'All'>

export interface BlogPost {
  id: string
  title: string
  excerpt: string
  content: string
  author: string
  /** ISO date. */
  publishedAt: string
  readTime: string
  category: BlogCategory
  tags: string[]
}

export const blogPosts: BlogPost[] = [
  {
    id: 'qr-code-error-correction-levels',
    title: 'QR Code Error Correction Levels Explained',
    excerpt: 'L, M, Q and H decide how much of a code can be damaged or covered and still scan. Here is how to choose.',
    author: 'Priya Natarajan',
    publishedAt: '2026-10-28',
    readTime: '5 min read',
    category: 'Technology',
    tags: ['error correction', 'logos', 'printing', 'basics'],
    content: `Every QR code carries spare data. If part of the code is scratched, smudged or covered by a logo, a phone can rebuild the missing part from the spare. How much spare a code carries is its **error correction level**.

## The four levels

| Level | Share of the code that can be restored | Typical use |
|---|---|---|
| L (Low) | about 7% | Clean screens, very long content |
| M (Medium) | about 15% | Everyday print, the usual default |
| Q (Quartile) | about 25% | Outdoor signs, labels that get handled |
| H (High) | about 30% | Codes with a logo in the middle |

## What higher correction costs

More spare data means more modules (the small squares). For the same content, an H code has a finer pattern than an L code of the same printed size, so it needs a little more room or a little more care in printing.

- **Short content** (a website address) fits easily at any level.
- **Long content** (a full contact card) grows quickly at H: keep the fields short.
- **Logos** need the spare: a logo covers modules, and only correction brings them back.

## What Squarely does

Squarely draws its codes at level **H**, so a code keeps reading when it gets a logo, a scuff or a fold. When you add a logo, we check its size against what H can restore and refuse a logo that would cover too much, with the reason, instead of letting you download a code that does not scan.

## A quick rule

- No logo, clean surface: M is plenty.
- Outdoors or handled a lot: Q.
- A logo, or you are not sure: H.`,
  },
  {
    id: 'qr-code-print-size-guide',
    title: 'How Big Should a Printed QR Code Be?',
    excerpt: 'The minimum size, the quiet zone and a simple distance rule that keeps codes scannable on paper, posters and signs.',
    author: 'Tom Becker',
    publishedAt: '2026-10-14',
    readTime: '4 min read',
    category: 'Design',
    tags: ['printing', 'size', 'quiet zone', 'design'],
    content: `A code that scans on your monitor can fail on a business card. Size, margin and contrast decide whether a phone reads it at the first try.

## The minimum size

Print a QR code at **at least 2 x 2 cm** (about 0.8 x 0.8 inches). Below that, phone cameras struggle to focus, and codes with a lot of content turn into a grey blur.

## The distance rule

The further away people stand, the bigger the code. A good rule of thumb: the code's width should be about **a tenth of the scanning distance**.

| Where | Scanning distance | Code width |
|---|---|---|
| Business card, flyer | 20-30 cm | 2-3 cm |
| Table card, menu | 30-50 cm | 3-5 cm |
| Poster | 1-2 m | 10-20 cm |
| Shop window, banner | 3-5 m | 30-50 cm |

## The quiet zone

Leave a blank margin around the code of **4 modules** (4 of the code's small squares) on every side. Scanners use this empty border to find where the code starts. Text, pictures or a busy background touching the code are a common reason codes fail.

## Contrast and material

- **Dark on light.** Most scanners expect a dark code on a light background.
- **Matte beats gloss.** Reflections on glossy paper can hide modules.
- **Flat beats curved.** A code wrapped around a bottle needs to be larger.

## Test before the print run

Print one copy at the real size, on the real material, and scan it with two or three different phones from the distance your readers will stand. It takes five minutes and saves a reprint.`,
  },
  {
    id: 'how-many-qr-codes-does-a-business-need',
    title: 'How Many QR Codes Does a Business Need?',
    excerpt: 'From a corner café to a chain of stores: typical numbers of codes by business size, and how to keep them organised.',
    author: 'Maya Lindqvist',
    publishedAt: '2026-09-30',
    readTime: '5 min read',
    category: 'Industry',
    tags: ['small business', 'planning', 'dynamic codes', 'management'],
    content: `It is easy to start with one QR code and end up with dozens. Knowing the usual numbers helps you pick a plan and keep things tidy.

## Typical counts

| Business size | Codes in use | Where they usually go |
|---|---|---|
| Small business | 3-5 | Menu or website, reviews, WiFi, a contact card |
| Medium business | 10-50 | Per location, per product line, per campaign |
| Enterprise | 50-200+ | Packaging, every store, every campaign and channel |

## Small businesses: 3-5 codes

A café or a hair studio usually needs a handful: one to the menu or booking page, one for reviews, one for social media and one contact card. Make the one that may change (the menu) **dynamic**, so a new menu never means new table cards.

## Medium businesses: 10-50 codes

Several locations or product lines multiply the codes. A separate code per location or per flyer tells you, through its scans, which one works.

## Enterprises: 50-200+ codes

Packaging, point-of-sale displays and campaigns across channels each get their own code. At this scale, **bulk generation** from a spreadsheet and consistent naming matter more than styling.

## Keeping them organised

- **Name every code** after where it is printed: "Menu - table cards - Main St".
- **Use dynamic codes** for anything whose destination might change.
- **Pause, do not delete**, codes for a campaign that might return.
- **Check the analytics** monthly and retire codes nobody scans.`,
  },
  {
    id: 'static-vs-dynamic-qr-codes',
    title: 'Static vs Dynamic QR Codes: Which One Do You Need?',
    excerpt: 'Static codes are free and permanent; dynamic codes can change after printing and count scans. A short guide to choosing.',
    author: 'Maya Lindqvist',
    publishedAt: '2026-09-16',
    readTime: '4 min read',
    category: 'Marketing',
    tags: ['dynamic codes', 'static codes', 'basics', 'campaigns'],
    content: `Both kinds look the same on paper. The difference is what is inside the pattern.

## Static codes

A static code holds its content directly: the web address, the contact card, the e-mail. Nothing stands between the scan and the content.

- **Free** and never expire.
- **Cannot change**: a typo means a reprint.
- **No scan counts**, because no server sees the scan.

## Dynamic codes

A dynamic code holds a short link to our server, which forwards each scan to the destination you choose.

- **Editable**: change the destination any time, the printed code stays the same.
- **Measurable**: every scan is counted, with device, browser and referrer.
- **Pausable**: switch a code off between campaigns.

## Which one to choose

| Situation | Choose |
|---|---|
| Contact card on your own business card | Static |
| Guest WiFi at home | Static |
| Restaurant menu that changes with the season | Dynamic |
| Print campaign you want to measure | Dynamic |
| Packaging printed in large numbers | Dynamic |

**Rule of thumb:** if the code is expensive to reprint or you want to know whether it works, make it dynamic.`,
  },
  {
    id: 'reading-your-qr-code-analytics',
    title: 'Reading Your QR Code Analytics',
    excerpt: 'Total and unique scans, devices, browsers and referrers: what each number tells you about a campaign.',
    author: 'Priya Natarajan',
    publishedAt: '2026-08-26',
    readTime: '6 min read',
    category: 'Analytics',
    tags: ['analytics', 'dynamic codes', 'campaigns', 'csv'],
    content: `A dynamic code counts each scan. Here is how to read what the analytics show.

## Total and unique scans

**Total scans** counts every scan. **Unique visitors** counts people, so one person scanning three times counts once. A big gap between the two often means people scan, lose the page and scan again: check that the destination loads well on a phone.

## Scans over time

The daily chart shows the last 30 days. Look for:

- **Spikes** on the day a flyer went out or a poster went up.
- **A slow fade** after a campaign: normal, and a hint for when to refresh it.
- **Nothing at all**: the code may be badly placed, too small or missing a reason to scan.

Link previews and crawlers also open links. Squarely counts them apart from people, so your numbers reflect human scans.

## Devices, systems and browsers

If most scans come from phones with one operating system, test your landing page there first. A lot of desktop browsers usually means the short link is being shared, not scanned.

## Referrers

Most scans come straight from the camera and carry no referrer. When a referrer shows up, the link was opened from another site or app: a sign your code or its link travels beyond print.

## Export

Download a code's scans as **CSV** to combine them with sales or footfall in your own spreadsheet.`,
  },
  {
    id: 'qr-code-security-tips',
    title: 'Scan Safely: QR Code Security for Businesses',
    excerpt: 'Fake stickers over real codes are a growing scam. How to protect your customers and your brand.',
    author: 'Tom Becker',
    publishedAt: '2026-08-12',
    readTime: '4 min read',
    category: 'Security',
    tags: ['security', 'phishing', 'dynamic codes', 'best practices'],
    content: `Because people cannot read a QR code with their eyes, a scammer can cover a real code with a sticker that leads to a fake payment page. This is sometimes called **quishing**.

## Protect your codes

- **Check your codes in place** regularly, especially on parking meters, posters and tables.
- **Print codes inside the material** (laminated, engraved) rather than as stickers that are easy to copy.
- **Show your domain** next to the code, so people can compare it with what their phone displays.

## Protect your customers

- **Use HTTPS destinations** only. Squarely refuses web addresses that are not http or https.
- **Never ask for passwords or card numbers** on a page reached by a code, unless it is your own well-known site.
- **Keep destinations short and recognisable**: your own domain, not a chain of redirects.

## What dynamic codes add

If a destination is ever compromised, a dynamic code lets you **change it or pause the code at once**, without reprinting. Sudden changes in scan numbers or referrers are also an early sign that something is off.

## Checklist

| Step | How often |
|---|---|
| Scan each printed code yourself | Monthly |
| Look for stickers over codes | Weekly in public places |
| Review destinations and analytics | Monthly |`,
  },
  {
    id: 'restaurant-menu-qr-codes',
    title: 'Shark Tip: A Menu QR Code Guests Actually Use',
    excerpt: 'Five small changes that make table QR codes faster to scan and nicer to use.',
    author: 'Maya Lindqvist',
    publishedAt: '2026-07-29',
    readTime: '3 min read',
    category: 'Shark Tips',
    tags: ['restaurants', 'menus', 'hospitality', 'tips'],
    content: `A table QR code is often the first thing a guest touches. Make it easy.

## 1. Say what it does

"Scan for the menu" beats a bare code. A frame with **SCAN ME** or your own short text tells people it is worth their time.

## 2. Make it big enough

At least **3-5 cm** on a table card, read from 30-50 cm away, with a blank margin of 4 modules around it.

## 3. Link to a phone-friendly page

A PDF of the printed menu is hard to read on a phone. A simple web page with large text loads faster and is easier to browse.

## 4. Use a dynamic code

Prices and dishes change. With a dynamic code, you **update the page, not the table cards**.

## 5. Offer a way back

Add a second code, or a link at the end of the menu, for reviews or your WiFi. Guests who enjoyed the meal are happy to leave a review while they are still at the table.

**Bonus:** check the scan analytics after a month. If scans drop in the evening, the lighting may be too dim for the cameras.`,
  },
  {
    id: 'branded-qr-codes-that-still-scan',
    title: 'Branded QR Codes That Still Scan',
    excerpt: 'Colours, logos and shapes can make a code yours. Here is how far you can go before phones stop reading it.',
    author: 'Priya Natarajan',
    publishedAt: '2026-07-15',
    readTime: '5 min read',
    category: 'Design',
    tags: ['design', 'branding', 'logos', 'colours'],
    content: `A code in your colours with your logo gets more scans than a plain black square, as long as it still scans.

## Colours

- **Keep it dark on light.** The foreground needs to be clearly darker than the background. Squarely checks the contrast and tells you when it is too low.
- **Avoid inverted codes** (light on dark). Many scanners do not read them; Squarely refuses them for that reason.
- **Gradients** work when both colours are dark enough against the background.

## Logos

A logo covers part of the code, and error correction has to rebuild it. At level H about 30% can be restored, but the finder patterns in the corners must stay free.

| Logo width | Result |
|---|---|
| Up to about a fifth of the code | Reliable |
| A quarter of the code | Works at H, test it |
| More | Refused: it would not scan |

## Shapes

Rounded or circular modules and custom corner eyes are fine: scanners look for the pattern, not the exact shape. Keep the **corner eyes** clearly recognisable.

## Frames

A frame with a short call to action ("SCAN ME", "Menu", "Book now") adds a reason to scan without touching the code itself.

## Always test

Scan the downloaded file with at least two phones before it goes to print.`,
  },
]

export function findPost(id: string | undefined): BlogPost | undefined {
  return blogPosts.find((p) => p.id === id)
}
