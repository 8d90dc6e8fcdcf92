// What other features may use of the analytics (eslint.config.js keeps the rest private).
export { Gs1ScanTable } from './components/gs1-scan-table'
