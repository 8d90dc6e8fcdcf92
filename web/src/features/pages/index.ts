// What other features may use of hosted pages (eslint.config.js keeps the rest private).
export { PageStats } from './components/page-stats'
