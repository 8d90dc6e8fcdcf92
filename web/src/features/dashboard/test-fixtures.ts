import type { DynamicCode, StaticCode } from './api/types'

/** A saved static code, as the dashboard's tests list it. */
export const staticCode: StaticCode = {
  id: 7,
  name: 'Shop front',
  qrType: 'url',
  qrMode: 'static',
  data: 'https://shop.example.com',
  scanCount: 0,
  isPaused: false,
  createdAt: '2026-11-20T08:00:00Z',
}

/** An active dynamic code, one day newer than staticCode. */
export const dynamicCode: DynamicCode = {
  id: 3,
  name: 'Menu card',
  qrType: 'url',
  qrMode: 'dynamic',
  data: 'http://localhost/d/AbC123xy',
  destination: 'https://menu.example.com',
  shortCode: 'AbC123xy',
  shortUrl: 'http://localhost/d/AbC123xy',
  scanCount: 42,
  lastScannedAt: null,
  isPaused: false,
  pausedAt: null,
  createdAt: '2026-11-21T08:00:00Z',
  updatedAt: '2026-11-21T08:00:00Z',
  isProtected: false,
  routing: null,
  limitScans: 0,
  health: { status: 'ok', reason: '', url: '', since: null, checkedAt: '2026-11-21T09:00:00Z' },
  alertsMuted: false,
}
