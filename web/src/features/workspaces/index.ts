// What other features may use of workspaces (eslint.config.js keeps the rest private).
export { WorkspacePage } from './components/workspace-page'
