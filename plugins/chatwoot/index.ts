import { definePlugin, field } from '#sdk/plugin'

export const CHATWOOT_DEFAULT_BASE_URL = 'https://app.chatwoot.com'
export const CHATWOOT_TASKS = ['Show widget', 'Close widget'] as const

const showing = { field: '$.task', notEquals: 'Close widget' }

/**
 * Chatwoot: shows the Chatwoot website widget on the visitor's page (handing the
 * conversation to a human) or closes it. A client-side action: the viewer, or the embed
 * script on the host page, loads Chatwoot's SDK and opens the widget.
 */
export default definePlugin({
  id: 'Chatwoot',
  name: 'Chatwoot',
  fullName: 'Chatwoot live chat',
  tags: ['support', 'live chat', 'handover', 'inbox'],
  description: "Open or close Chatwoot's live chat widget on the visitor's page",
  category: 'integration',
  scope: 'user',
  icon: 'icon.svg',
  version: 1,
  docsUrl:
    'https://www.chatwoot.com/hc/user-guide/articles/1677587234-how-to-send-additional-user-information-to-chatwoot-using-sdk',
  serves: ['bot'],
  hostScripts: [CHATWOOT_DEFAULT_BASE_URL],
  options: {
    task: field.enum({ label: 'Task', options: CHATWOOT_TASKS, defaultValue: 'Show widget' }),
    baseUrl: field.string({
      label: 'Chatwoot URL',
      defaultValue: CHATWOOT_DEFAULT_BASE_URL,
      helperText:
        'Your own address if you host Chatwoot yourself (sites embedding the bot list it in allowedScriptOrigins).',
      showIf: showing,
    }),
    websiteToken: field.string({
      label: 'Website token',
      placeholder: 'e.g. XyZ12abC34dEf56GhI78jKl9',
      helperText: 'In Chatwoot: Settings > Inboxes > your website inbox > Configuration.',
      allowVariables: true,
      required: true,
      showIf: showing,
    }),
    user: field.object(
      {
        id: field.string({ label: 'User ID', allowVariables: true }),
        email: field.string({ label: 'E-mail', allowVariables: true }),
        name: field.string({ label: 'Name', allowVariables: true }),
        avatarUrl: field.string({ label: 'Avatar URL', allowVariables: true }),
        phoneNumber: field.string({ label: 'Phone number', allowVariables: true }),
      },
      {
        label: 'Visitor',
        helperText: 'Sent to Chatwoot with setUser when the user ID is set.',
        showIf: showing,
      }
    ),
  },
})
