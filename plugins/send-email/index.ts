import { definePlugin, field } from '#sdk/plugin'

export const BODY_TYPES = ['text', 'html'] as const

/**
 * Sends an e-mail, in a bot (the E-mail block) or a workflow: through the workspace's own
 * SMTP account when one is picked, else the application's mailer (SMTP when SMTP_HOST is set,
 * else the dev mailbox). Recipient fields take several addresses separated by commas;
 * attachments come from a variable holding a file URL or a list of them (a file input's
 * answer, a QR code...).
 */
export default definePlugin({
  id: 'send-email',
  name: 'Send e-mail',
  fullName: 'Send an email (SMTP)',
  tags: ['email', 'smtp', 'mail', 'notification'],
  description: 'Send an e-mail',
  category: 'action',
  scope: 'user',
  icon: 'mail',
  version: 1,
  serves: ['bot', 'workflow'],
  credentials: {
    host: field.string({ label: 'SMTP host', placeholder: 'smtp.example.com', required: true }),
    port: field.number({ label: 'Port', defaultValue: 587, min: 1, max: 65535 }),
    secure: field.boolean({
      label: 'TLS from the start',
      defaultValue: false,
      helperText: 'On for port 465; off uses STARTTLS when the server offers it (587, 25).',
    }),
    username: field.string({ label: 'Username' }),
    password: field.string({ label: 'Password', secret: true }),
    fromEmail: field.string({
      label: 'From e-mail',
      placeholder: 'orders@example.com',
      required: true,
    }),
    fromName: field.string({ label: 'From name', placeholder: 'Acme orders' }),
  },
  options: {
    credentialsId: field.credentials({
      label: 'SMTP account',
      credentialType: 'send-email',
      helperText: "Empty: the app's own mail settings.",
    }),
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
    attachmentsVariableId: field.variable({
      label: 'Attachments',
      helperText: 'A variable holding a file URL or a list of them, e.g. a file input answer.',
    }),
  },
})
