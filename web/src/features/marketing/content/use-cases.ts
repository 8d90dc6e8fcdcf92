/** The Use Cases page: 12 industries; the cards show the first 3 benefits (spec 02 §2, §9). */
export interface UseCase {
  industry: string
  description: string
  benefits: string[]
}

export const useCases: UseCase[] = [
  {
    industry: 'Restaurants & Cafés',
    description: 'Menus, ordering pages and guest reviews from the table.',
    benefits: ['Update the menu without reprinting', 'Fewer printed menus to wipe and replace', 'Collect reviews while the meal is fresh', 'Share opening hours and allergens'],
  },
  {
    industry: 'Retail',
    description: 'Product details, loyalty sign-ups and shop pages on shelves and receipts.',
    benefits: ['Product information at the shelf', 'Grow your mailing list at the till', 'Link packaging to how-to videos', 'Measure which displays get scanned'],
  },
  {
    industry: 'Real Estate',
    description: 'Listings, virtual tours and agent contacts on signs and brochures.',
    benefits: ['Full listing from the yard sign', 'Agent contact saved in one tap', 'Swap the listing when the house sells', 'See which signs draw interest'],
  },
  {
    industry: 'Healthcare',
    description: 'Forms, appointment pages and leaflets in waiting rooms.',
    benefits: ['Check-in forms before the visit', 'Up-to-date patient leaflets', 'Directions to the right building', 'Fewer printed handouts'],
  },
  {
    industry: 'Education',
    description: 'Course pages, reading lists and campus maps for students and parents.',
    benefits: ['Reading lists from the handout', 'Campus locations on the map', 'Event sign-ups from posters', 'One code per class, updated each term'],
  },
  {
    industry: 'Events',
    description: 'Tickets, programmes and venue maps on posters, badges and screens.',
    benefits: ['Programme changes reach everyone', 'Venue directions in the map app', 'Networking with contact-card badges', 'Count scans per poster location'],
  },
  {
    industry: 'Hospitality & Hotels',
    description: 'Guest WiFi, room service and local guides in every room.',
    benefits: ['Guest information without a binder', 'Room-service menus that stay current', 'Reviews collected at check-out', 'Local tips on the front desk'],
  },
  {
    industry: 'Marketing & Advertising',
    description: 'Print, outdoor and packaging campaigns that lead online.',
    benefits: ['Bridge print ads to landing pages', 'Change the offer mid-campaign', 'Compare placements by scans', 'Brand-coloured codes that still scan'],
  },
  {
    industry: 'Manufacturing',
    description: 'Manuals, spare parts and safety sheets on machines and boxes.',
    benefits: ['Manuals at the machine', 'Safety sheets always current', 'Spare-part ordering from the label', 'Bulk codes for whole product lines'],
  },
  {
    industry: 'Non-profits',
    description: 'Donation pages, volunteer sign-ups and campaign stories.',
    benefits: ['Donations from flyers and posters', 'Volunteer sign-up in seconds', 'Tell the campaign story online', 'Track which events raise interest'],
  },
  {
    industry: 'Fitness & Wellness',
    description: 'Class timetables, booking pages and exercise videos in the studio.',
    benefits: ['Timetables that change with the season', 'Book a class from the front desk', 'Exercise videos on every machine', 'Membership offers on flyers'],
  },
  {
    industry: 'Personal Use',
    description: 'Wedding sites, photo albums, contact cards and guest WiFi at home.',
    benefits: ['Share photos after the party', 'Contact details on your CV', 'WiFi for visiting friends', 'Free static codes that never expire'],
  },
]
