/**
 * A bot's messaging channel as its settings show it (GET /api/v1/bots/:id/channels;
 * docs/channels.md). Never carries a secret.
 */
export type ChannelName = 'telegram' | 'whatsapp'

export interface ChannelStatus {
  channel: ChannelName
  connected: boolean
  /** Telegram: the URL registered with Telegram, null while none is. */
  webhookUrl: string | null
  /** WhatsApp: the callback URL and verify token to paste in the Meta app's webhook settings. */
  callbackUrl?: string
  /** Only for people who can edit the bot. */
  verifyToken?: string
  phoneNumberId?: string
  /** Whether the app secret is set (X-Hub-Signature-256 is then checked). */
  hasAppSecret?: boolean
  /** Telegram's or Meta's last refusal. */
  lastError: string | null
}
