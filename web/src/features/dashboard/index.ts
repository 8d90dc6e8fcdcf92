// What other features may use of the dashboard (eslint.config.js keeps the rest private).
export { useVerifiedDomains } from './api/codes'
export { useFolders, useTags } from './api/organise'
