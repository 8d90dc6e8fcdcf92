/**
 * The analytics marketing page's six cards (spec 02 §2). Each says only what
 * the dashboard does today: where a feature is partial, the card says how far it goes.
 */
export const analyticsFeatures = [
  {
    title: 'Real-time tracking',
    description:
      'Every scan of a dynamic code is counted within seconds. An open analytics view refreshes itself, so new scans appear without reloading the page.',
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
      'Download every scan of a code as a CSV file (time, country, device, operating system, browser, referrer), or any breakdown of the chosen range, for your own spreadsheets and reports.',
  },
  {
    title: 'Custom date ranges',
    description:
      'Pick the last 24 hours, 7, 30 or 90 days, all time, or any dates on a calendar in your own time zone, and compare with the period before. Link-preview bots and crawlers are counted apart.',
  },
  {
    title: 'Geographic insights',
    description:
      'See the country of each scan, worked out on our own server from an offline database (no address is stored), and the sites and apps that sent visitors.',
  },
] as const
