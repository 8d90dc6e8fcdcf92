/** How the log words each action (docs/API.md "Audit log"); one the app does not know shows as its dotted name. */
const actionLabels: Record<string, string> = {
  'workspace.created': 'created the workspace',
  'workspace.renamed': 'renamed the workspace',
  'workspace.require_2fa_changed': 'changed the two-factor requirement of',
  'member.invited': 'invited',
  'member.invitation_revoked': 'revoked the invitation of',
  'member.joined': 'joined the workspace',
  'member.role_changed': 'changed the role of',
  'member.removed': 'removed',
  'member.alert_emails_changed': 'changed the alert e-mails of',
  'api_key.created': 'created the API key',
  'api_key.revoked': 'revoked the API key',
  'code.created': 'created the code',
  'code.renamed': 'renamed the code',
  'code.destination_changed': 'changed the destination of',
  'code.paused': 'paused',
  'code.resumed': 'resumed',
  'code.restyled': 'restyled',
  'code.password_changed': 'changed the password of',
  'code.deleted': 'deleted the code',
  'code.tags_changed': 'changed the tags of',
  'code.folder_changed': 'changed the folder of',
  'code.alerts_muted': 'muted the alerts of',
  'code.alerts_unmuted': 'turned on the alerts of',
  'code.domain_changed': 'changed the domain of',
  'domain.added': 'added the domain',
  'domain.verified': 'verified the domain',
  'domain.deleted': 'deleted the domain',
  'tag.created': 'created the tag',
  'tag.updated': 'changed the tag',
  'tag.deleted': 'deleted the tag',
  'folder.created': 'created the folder',
  'folder.renamed': 'renamed the folder',
  'folder.deleted': 'deleted the folder',
  'utm_preset.created': 'saved the UTM preset',
  'utm_preset.deleted': 'deleted the UTM preset',
  'brand_kit.created': 'created the brand kit',
  'brand_kit.updated': 'changed the brand kit',
  'brand_kit.deleted': 'deleted the brand kit',
  'webhook.created': 'added the webhook endpoint',
  'webhook.updated': 'changed the webhook endpoint',
  'webhook.deleted': 'deleted the webhook endpoint',
  'webhook.secret_rotated': 'rotated the signing secret of',
  'webhook.tested': 'sent a test event to',
  'webhook.delivery_retried': 'retried a delivery to',
  'share_link.created': 'made the share link',
  'share_link.revoked': 'revoked the share link',
  'report_schedule.created': 'scheduled the report',
  'report_schedule.updated': 'changed the report schedule',
  'report_schedule.deleted': 'deleted the report schedule',
  'move.started': 'started moving codes to another workspace',
  'code.moved': 'moved the code between workspaces',
}

export function actionLabel(action: string) {
  return actionLabels[action] ?? action
}

function show(value: unknown): string {
  if (value === null || value === undefined || value === '') return '(none)'
  if (typeof value === 'string') return value
  if (Array.isArray(value)) return value.length ? value.map(show).join(', ') : '(none)'
  return JSON.stringify(value)
}

function isChange(value: unknown): value is { before?: unknown; after?: unknown } {
  return typeof value === 'object' && value !== null && ('before' in value || 'after' in value)
}

/**
 * An entry's details as one line: each changed field as "field: before →
 * after", anything else as "name: value".
 */
export function describeDetails(details: unknown): string {
  if (details === null || details === undefined || details === '') return ''
  if (typeof details !== 'object') return String(details)
  if (isChange(details)) return `${show(details.before)} → ${show(details.after)}`
  return Object.entries(details)
    .map(([key, value]) => (isChange(value) ? `${key}: ${show(value.before)} → ${show(value.after)}` : `${key}: ${show(value)}`))
    .join('; ')
}
