import { definePlugin, field } from '#sdk/plugin'

export const PARSE_MODES = ['none', 'Markdown', 'HTML'] as const

const chatId = field.string({
  label: 'Chat ID',
  placeholder: '123456789 or @channelname',
  allowVariables: true,
  required: true,
  helperText: "A user's, group's or channel's id; @name for public channels.",
})
const parseMode = field.enum({
  label: 'Parse mode',
  options: [
    { label: 'Plain text', value: 'none' },
    { label: 'Markdown', value: 'Markdown' },
    { label: 'HTML', value: 'HTML' },
  ],
  defaultValue: 'none',
})
const extras = {
  replyToMessageId: field.string({
    label: 'Reply to message ID',
    allowVariables: true,
    helperText: 'Sends the message as a reply to this one (in the same chat).',
  }),
  disableNotification: field.boolean({ label: 'Send silently', defaultValue: false }),
}

/**
 * Telegram actions of a workflow: send a message, a photo or a document with a Telegram bot.
 * Uses the bot token of a "Telegram trigger" credential, so one bot serves both the trigger
 * and these actions (docs/plugins.md, "Credentials of another plugin").
 */
export default definePlugin({
  id: 'telegram',
  name: 'Telegram',
  fullName: 'Telegram bot messages',
  tags: ['chat', 'message', 'notification', 'messenger'],
  description: 'Send messages, photos and documents with your Telegram bot',
  category: 'action',
  scope: 'user',
  icon: 'send',
  version: 1,
  docsUrl: 'https://core.telegram.org/bots/api#available-methods',
  serves: ['workflow'],
  options: {
    credentialsId: field.credentials({
      label: 'Bot',
      credentialType: 'telegram-trigger',
      required: true,
      helperText: 'The bot token @BotFather gave you (a Telegram credential).',
    }),
  },
  actions: {
    'Send a message': {
      label: 'Send a message',
      options: {
        chatId,
        text: field.string({
          label: 'Text',
          multiline: true,
          allowVariables: true,
          required: true,
        }),
        parseMode,
        disableWebPagePreview: field.boolean({ label: 'No link preview', defaultValue: false }),
        ...extras,
      },
    },
    'Send a photo': {
      label: 'Send a photo',
      options: {
        chatId,
        photo: field.string({
          label: 'Photo URL or file ID',
          allowVariables: true,
          required: true,
        }),
        caption: field.string({ label: 'Caption', multiline: true, allowVariables: true }),
        parseMode,
        ...extras,
      },
    },
    'Send a document': {
      label: 'Send a document',
      options: {
        chatId,
        document: field.string({
          label: 'Document URL or file ID',
          allowVariables: true,
          required: true,
        }),
        caption: field.string({ label: 'Caption', multiline: true, allowVariables: true }),
        parseMode,
        ...extras,
      },
    },
  },
})
