import env from '#start/env'
import type BotChannel from '#models/bot_channel'
import { decryptCredentials, encryptCredentials } from '#plugins/vault'

/** A channel's secrets (bot tokens, app secrets) are encrypted at rest like credentials. */

export function channelSecrets<T>(record: BotChannel): T {
  return decryptCredentials<T>({ iv: record.iv, data: record.data }, env.get('ENCRYPTION_SECRET'))
}

export function storeChannelSecrets(record: BotChannel, secrets: object) {
  const encrypted = encryptCredentials(secrets, env.get('ENCRYPTION_SECRET'))
  record.iv = encrypted.iv
  record.data = encrypted.data
}
