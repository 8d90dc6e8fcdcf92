// What the app may use of the bulk edit feature (eslint.config.js keeps the rest private).
export { BulkEditDialog, type BulkEditDialogProps } from './components/bulk-edit-dialog'
