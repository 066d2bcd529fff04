import { definePlugin, field } from '#sdk/plugin'

export const BODY_TYPES = ['text', 'html'] as const

/**
 * Sends an e-mail through the application's mailer: SMTP when SMTP_HOST is set, else the
 * dev mailbox. Recipient fields take several addresses separated by commas.
 */
export default definePlugin({
  id: 'send-email',
  name: 'Send e-mail',
  description: 'Send an e-mail',
  category: 'action',
  scope: 'user',
  icon: 'mail',
  version: 1,
  serves: ['workflow'],
  options: {
    to: field.string({
      label: 'To',
      placeholder: 'ada@example.com, {{Email}}',
      allowVariables: true,
      required: true,
    }),
    cc: field.string({ label: 'Cc', allowVariables: true }),
    bcc: field.string({ label: 'Bcc', allowVariables: true }),
    replyTo: field.string({ label: 'Reply to', allowVariables: true }),
    subject: field.string({ label: 'Subject', allowVariables: true, required: true }),
    bodyType: field.enum({
      label: 'Body format',
      options: [
        { label: 'Text', value: 'text' },
        { label: 'HTML', value: 'html' },
      ],
      defaultValue: 'text',
    }),
    body: field.string({
      label: 'Body',
      placeholder: 'Hello {{Name}},',
      allowVariables: true,
      multiline: true,
    }),
  },
})
