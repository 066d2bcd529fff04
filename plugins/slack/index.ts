import { definePlugin, field } from '#sdk/plugin'

const channel = field.string({
  label: 'Channel',
  placeholder: 'C0123456789',
  allowVariables: true,
  required: true,
  helperText: "The channel's ID (channel details > About). The app must be in the channel.",
})

/**
 * Slack actions of a workflow: post to a channel, reply in a thread, upload a file, as the
 * bot of a Slack app. Uses the bot token of a "Slack trigger" credential, so one app serves
 * the trigger and these actions (docs/plugins.md, "Credentials of another plugin").
 */
export default definePlugin({
  id: 'slack',
  name: 'Slack',
  fullName: 'Slack messages and files',
  tags: ['chat', 'message', 'notification', 'team'],
  description: 'Post messages, reply in threads and upload files with your Slack app',
  category: 'action',
  scope: 'user',
  icon: 'slack',
  version: 1,
  docsUrl: 'https://api.slack.com/methods/chat.postMessage',
  serves: ['workflow'],
  options: {
    credentialsId: field.credentials({
      label: 'Slack app',
      credentialType: 'slack-trigger',
      required: true,
      helperText:
        'The bot token needs the chat:write scope (files:write to upload, im:write for direct messages).',
    }),
  },
  actions: {
    'Post a message': {
      label: 'Post a message',
      options: {
        channel,
        text: field.string({
          label: 'Text',
          multiline: true,
          allowVariables: true,
          required: true,
          helperText: 'Slack formatting (mrkdwn): *bold*, _italic_, <https://example.com|links>.',
        }),
        unfurlLinks: field.boolean({ label: 'Show link previews', defaultValue: true }),
      },
    },
    'Reply in a thread': {
      label: 'Reply in a thread',
      options: {
        channel,
        threadTs: field.string({
          label: 'Thread (message ts)',
          placeholder: '1700000000.000100',
          allowVariables: true,
          required: true,
          helperText: 'The ts of the message that starts the thread (a Post node outputs it).',
        }),
        text: field.string({
          label: 'Text',
          multiline: true,
          allowVariables: true,
          required: true,
        }),
        alsoSendToChannel: field.boolean({
          label: 'Also send to the channel',
          defaultValue: false,
        }),
      },
    },
    'Upload a file': {
      label: 'Upload a file',
      options: {
        channel,
        fileUrl: field.string({
          label: 'File URL',
          allowVariables: true,
          required: true,
          helperText: 'A link to the file, e.g. a stored file or an ElevenLabs / QR code output.',
        }),
        fileName: field.string({ label: 'File name', allowVariables: true }),
        title: field.string({ label: 'Title', allowVariables: true }),
        initialComment: field.string({ label: 'Message', multiline: true, allowVariables: true }),
        threadTs: field.string({ label: 'Thread (message ts)', allowVariables: true }),
      },
    },
    'Send a direct message': {
      label: 'Send a direct message',
      options: {
        users: field.string({
          label: 'Users',
          placeholder: 'U0123456789, U0987654321',
          allowVariables: true,
          required: true,
          helperText:
            'Member IDs (profile > ⋮ > Copy member ID), separated by commas; each gets the message in a direct conversation with the app. At most 10 by default (SLACK_USER_LIMIT).',
        }),
        text: field.string({
          label: 'Text',
          multiline: true,
          allowVariables: true,
          required: true,
        }),
      },
    },
  },
})
