import vine from '@vinejs/vine'

/** PUT /api/v1/bots/:id/channels/telegram. An empty token keeps the stored one. */
export const connectTelegramValidator = vine.compile(
  vine.object({
    botToken: vine.string().trim().maxLength(200).optional(),
    baseUrl: vine.string().trim().url({ require_tld: false }).maxLength(500).optional(),
  })
)

/** PUT /api/v1/bots/:id/channels/whatsapp. Empty secrets keep the stored ones. */
export const connectWhatsAppValidator = vine.compile(
  vine.object({
    systemUserAccessToken: vine.string().trim().maxLength(1000).optional(),
    phoneNumberId: vine.string().trim().maxLength(32).optional(),
    appSecret: vine.string().trim().maxLength(200).optional(),
    verifyToken: vine.string().trim().maxLength(64).optional(),
    baseUrl: vine.string().trim().url({ require_tld: false }).maxLength(500).optional(),
  })
)
