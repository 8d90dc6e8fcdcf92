// What the app may use of the bulk edit feature (eslint.config.js keeps the rest private).
export { BulkEditDialog, type BulkEditDialogProps } from './components/bulk-edit-dialog'
export { Preview as BulkEditPreview, JobProgress as BulkEditProgress, type Names as BulkEditNames } from './components/bulk-edit-dialog'
export type { DryRun as BulkEditDryRun } from './api/bulk-edit'
