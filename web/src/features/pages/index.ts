// What other features may use of hosted pages (eslint.config.js keeps the rest private).
export { pageTypes, type PageType } from './lib/page-types'
export { PageStats } from './components/page-stats'
