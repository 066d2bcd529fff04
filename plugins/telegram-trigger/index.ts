import { definePlugin, field } from '#sdk/plugin'
import { TELEGRAM_DEFAULT_BASE_URL } from '#sdk/telegram'

/**
 * The update types the trigger can ask for: option name -> Telegram's update field. Only
 * the chosen ones are requested from Telegram (allowed_updates) and accepted.
 */
export const TELEGRAM_UPDATE_OPTIONS = {
  message: 'message',
  editedMessage: 'edited_message',
  channelPost: 'channel_post',
  editedChannelPost: 'edited_channel_post',
  callbackQuery: 'callback_query',
  inlineQuery: 'inline_query',
  myChatMember: 'my_chat_member',
  chatMember: 'chat_member',
} as const

/**
 * Starts a run for each update a Telegram bot receives. Activating the workflow registers
 * its event URL as the bot's webhook (setWebhook, with a secret token Telegram echoes in
 * each call); deactivating deletes it. The run's input is the update as Telegram sent it.
 */
export default definePlugin({
  id: 'telegram-trigger',
  name: 'Telegram trigger',
  fullName: 'Telegram bot trigger',
  tags: ['telegram', 'chat', 'message', 'event'],
  description: 'Start the workflow when your Telegram bot receives an update',
  category: 'trigger',
  scope: 'user',
  icon: 'icon.svg',
  version: 1,
  docsUrl: 'https://core.telegram.org/bots/api#setwebhook',
  serves: ['workflow'],
  exposesUrl: {
    kind: 'event',
    hint: "Activating the workflow sets this as your bot's webhook; there is nothing to paste.",
  },
  credentials: {
    accessToken: field.string({
      label: 'Bot token',
      placeholder: '123456789:AA...',
      secret: true,
      required: true,
      helperText: 'The token @BotFather gave you when you created the bot.',
    }),
    baseUrl: field.string({
      format: 'url',
      label: 'Base URL',
      defaultValue: TELEGRAM_DEFAULT_BASE_URL,
      helperText: 'Change it only for a self-hosted Bot API server.',
    }),
  },
  options: {
    credentialsId: field.credentials({
      label: 'Bot',
      credentialType: 'telegram-trigger',
      required: true,
      helperText:
        'Activating the workflow makes it the webhook of this bot: one active workflow per bot.',
    }),
    message: field.boolean({ label: 'New messages', defaultValue: true }),
    editedMessage: field.boolean({ label: 'Edited messages', defaultValue: false }),
    channelPost: field.boolean({ label: 'Channel posts', defaultValue: false }),
    editedChannelPost: field.boolean({ label: 'Edited channel posts', defaultValue: false }),
    callbackQuery: field.boolean({
      label: 'Button presses (callback queries)',
      defaultValue: false,
    }),
    inlineQuery: field.boolean({ label: 'Inline queries', defaultValue: false }),
    myChatMember: field.boolean({ label: "The bot's membership changes", defaultValue: false }),
    chatMember: field.boolean({ label: 'Chat member changes', defaultValue: false }),
  },
})
