/**
 * The analytics marketing page's six cards (spec 02 §2). Each says only what
 * the dashboard does today: where a feature is partial, the card says how far it goes.
 */
export const analyticsFeatures = [
  {
    title: 'Scan tracking',
    description:
      'Every scan of a dynamic code is counted within seconds of happening. Open the code\u2019s analytics to see the latest totals and when it was last scanned.',
  },
  {
    title: 'Device and browser analytics',
    description: 'See which devices, operating systems and browsers your visitors scan with, read from each scan.',
  },
  {
    title: 'Performance metrics',
    description:
      'Total and unique scans, scans per day over time, and which of your codes perform best across your account.',
  },
  {
    title: 'Export your data',
    description:
      'Download every scan of a code as a CSV file (time, device, operating system, browser, referrer) for your own spreadsheets and reports.',
  },
  {
    title: 'Day-by-day history',
    description:
      'Scans per day over the last 30 days, with link-preview bots and crawlers counted apart, so you can compare a campaign week with the weeks around it.',
  },
  {
    title: 'Where scans come from',
    description:
      'See the sites and apps that sent visitors (the referrer), so you know which placements and channels bring people in.',
  },
] as const
