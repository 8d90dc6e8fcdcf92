/** The FAQ page's questions (spec 02 §2: 12 items), in our own words and true to the product. */
export const faqs = [
  {
    question: 'Is Squarely free to use?',
    answer:
      'Yes. Static QR codes are free: make as many as you like, style them and download them as PNG, SVG or PDF without an account. Saving codes, dynamic codes and scan analytics come with a free account and the premium plan.',
  },
  {
    question: 'What is the difference between a static and a dynamic QR code?',
    answer:
      'A static code holds its content (a link, a contact card, an e-mail) directly in its pattern, so it can never change. A dynamic code holds a short link of ours that forwards to your destination: you can change the destination after printing, pause the code, and count its scans.',
  },
  {
    question: 'Which kinds of QR codes can I make?',
    answer:
      'Websites, contact cards (vCard), payment links, PDFs, social media profiles, image pages, review pages, e-mail, locations and app downloads. Events, SMS and Bitcoin codes are on our list and shown as coming soon in the generator.',
  },
  {
    question: 'Do my QR codes expire?',
    answer:
      'Static codes never expire: everything they hold is in the printed pattern. A dynamic code works as long as it is active in your account; if you pause or delete it, scans stop reaching the destination.',
  },
  {
    question: 'Can I change where a printed code points?',
    answer:
      'Only with a dynamic code. Open it in your dashboard, enter the new web address and save: the next scan goes to the new destination, and the printed code stays the same.',
  },
  {
    question: 'How do I see how often my code is scanned?',
    answer:
      'Every scan of a dynamic code is counted. Its analytics show scans over time, unique visitors, the devices, operating systems and browsers used, and the pages that sent people; you can download the scans as a CSV file.',
  },
  {
    question: 'Will a code with my colours and logo still scan?',
    answer:
      'We check every code before it leaves the generator. Colours with too little contrast, a light code on a dark background or a logo too large for the error correction are refused with the reason, so you never download a code that phones cannot read.',
  },
  {
    question: 'Which file format should I download?',
    answer:
      'PNG suits screens, documents and most printing. SVG is a vector file that stays sharp at any size, for signs and packaging. PDF drops straight into print workflows. All three hold the same code.',
  },
  {
    question: 'How large should I print a QR code?',
    answer:
      'At least 2 x 2 cm for something read at arm\u2019s length, and larger the further away people stand: about a tenth of the scanning distance is a good rule. Keep a blank margin (the quiet zone) of 4 modules around the code.',
  },
  {
    question: 'What does the free trial include?',
    answer:
      'Enter your e-mail address and you get 3 days of premium features, including dynamic codes and scan analytics, with no credit card. When the trial ends your codes stay in your account.',
  },
  {
    question: 'Can I make many codes at once?',
    answer:
      'Yes. Signed-in users can paste a list of entries, one per line, or upload a CSV or text file on the Bulk Generation page, and download every code as an SVG file.',
  },
  {
    question: 'How do I get help?',
    answer:
      'Write to us through the contact page. Our team answers Monday to Friday, 9AM-6PM EST, and we reply to every message within 24 hours.',
  },
] as const satisfies readonly { question: string; answer: string }[]
