// What other features may use of hosted pages (eslint.config.js keeps the rest private).
export { usePages } from './api/pages'
export { PageStats } from './components/page-stats'
