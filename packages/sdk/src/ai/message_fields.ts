import { field } from '../fields.js'

/**
 * The "messages" option of chat blocks: each entry has a role
 * (system, user, assistant) and content, or is a Dialogue entry reading the conversation
 * from a list variable, starting by the user (default) or the assistant. The stored shape
 * is what messages.ts reads. Browser-safe: manifests import it.
 */
export function chatMessagesField(
  roles: readonly ('system' | 'user' | 'assistant' | 'Dialogue')[] = [
    'system',
    'user',
    'assistant',
    'Dialogue',
  ]
) {
  return field.list(
    {
      role: field.enum({ label: 'Role', options: roles, defaultValue: 'user' }),
      content: field.string({
        label: 'Content',
        multiline: true,
        allowVariables: true,
        showIf: { field: 'role', notEquals: 'Dialogue' },
      }),
      dialogueVariableId: field.variable({
        label: 'Dialogue variable',
        showIf: { field: 'role', equals: 'Dialogue' },
      }),
      startsBy: field.enum({
        label: 'Starts by',
        options: ['user', 'assistant'],
        defaultValue: 'user',
        showIf: { field: 'role', equals: 'Dialogue' },
      }),
    },
    { label: 'Messages', itemLabel: 'message' }
  )
}
