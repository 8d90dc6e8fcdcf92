/** How the log words each action; an action the app does not know yet shows as its dotted name. */
const actionLabels: Record<string, string> = {
  'code.created': 'created the code',
  'code.renamed': 'renamed the code',
  'code.destination_changed': 'changed the destination of',
  'code.paused': 'paused',
  'code.resumed': 'resumed',
  'code.restyled': 'restyled',
  'code.deleted': 'deleted the code',
  'code.tags_changed': 'changed the tags of',
  'code.folder_changed': 'moved to another folder:',
  'tag.created': 'created the tag',
  'tag.renamed': 'changed the tag',
  'tag.updated': 'changed the tag',
  'tag.deleted': 'deleted the tag',
  'folder.created': 'created the folder',
  'folder.renamed': 'renamed the folder',
  'folder.deleted': 'deleted the folder',
  'member.invited': 'invited',
  'member.joined': 'joined',
  'member.role_changed': 'changed the role of',
  'member.removed': 'removed',
  'member.left': 'left',
  'invitation.revoked': 'revoked the invitation of',
  'api_key.created': 'created the API key',
  'api_key.revoked': 'revoked the API key',
  'workspace.created': 'created the workspace',
  'workspace.renamed': 'renamed the workspace',
}

export function actionLabel(action: string) {
  return actionLabels[action] ?? action
}

function show(value: unknown): string {
  if (value === null || value === undefined || value === '') return '(none)'
  if (typeof value === 'string') return value
  return JSON.stringify(value)
}

/**
 * An entry's short before/after as one line: "before → after" when it has
 * both, otherwise its fields as "name: value".
 */
export function describeDetails(details: unknown): string {
  if (details === null || details === undefined || details === '') return ''
  if (typeof details !== 'object') return String(details)
  const record = details as Record<string, unknown>
  if ('before' in record || 'after' in record) return `${show(record.before)} → ${show(record.after)}`
  return Object.entries(record)
    .map(([key, value]) => `${key}: ${show(value)}`)
    .join(', ')
}
