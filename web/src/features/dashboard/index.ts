// What other features may use of the dashboard (eslint.config.js keeps the rest private).
export { useFolders, useTags } from './api/organise'
