import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import type { PluginDeclaration } from './define_plugin.js'

/**
 * Credentials at rest: AES-256-GCM keyed by ENCRYPTION_SECRET, with a fresh random iv
 * per record stored beside the data. The GCM auth tag travels with the ciphertext, so a
 * wrong key or a modified record fails loudly instead of decrypting to garbage.
 */

export interface EncryptedCredentials {
  /** base64, 12 bytes */
  iv: string
  /** base64 of ciphertext followed by the 16-byte auth tag */
  data: string
}

const ALGORITHM = 'aes-256-gcm'
const IV_BYTES = 12
const TAG_BYTES = 16

export class CredentialsDecryptionError extends Error {
  constructor() {
    super(
      'Could not decrypt the credentials: the ENCRYPTION_SECRET is wrong or the data was modified'
    )
    this.name = 'CredentialsDecryptionError'
  }
}

function keyOf(secret: string) {
  if (typeof secret !== 'string' || secret.length !== 32) {
    throw new Error('ENCRYPTION_SECRET must be exactly 32 characters')
  }
  const key = Buffer.from(secret, 'utf8')
  // 32 non-ASCII characters would give more than 32 bytes, which AES-256 refuses.
  if (key.length !== 32) throw new Error('ENCRYPTION_SECRET must be 32 ASCII characters')
  return key
}

export function encryptCredentials(data: object, secret: string): EncryptedCredentials {
  const key = keyOf(secret)
  const iv = randomBytes(IV_BYTES)
  const cipher = createCipheriv(ALGORITHM, key, iv)
  const encrypted = Buffer.concat([cipher.update(JSON.stringify(data), 'utf8'), cipher.final()])
  return {
    iv: iv.toString('base64'),
    data: Buffer.concat([encrypted, cipher.getAuthTag()]).toString('base64'),
  }
}

export function decryptCredentials<T = Record<string, unknown>>(
  record: EncryptedCredentials,
  secret: string
): T {
  const key = keyOf(secret)
  const iv = Buffer.from(record?.iv ?? '', 'base64')
  const payload = Buffer.from(record?.data ?? '', 'base64')
  if (iv.length !== IV_BYTES || payload.length < TAG_BYTES) throw new CredentialsDecryptionError()
  try {
    const decipher = createDecipheriv(ALGORITHM, key, iv)
    decipher.setAuthTag(payload.subarray(payload.length - TAG_BYTES))
    const plain = Buffer.concat([
      decipher.update(payload.subarray(0, payload.length - TAG_BYTES)),
      decipher.final(),
    ])
    return JSON.parse(plain.toString('utf8')) as T
  } catch {
    throw new CredentialsDecryptionError()
  }
}

/**
 * What the browser may know about a credential record's secrets: whether each one is
 * filled, never its value.
 */
export function redactSecrets(
  declaration: Pick<PluginDeclaration, 'credentials'>,
  data: Record<string, unknown> | null | undefined
): Record<string, 'set' | 'not set'> {
  const redacted: Record<string, 'set' | 'not set'> = {}
  for (const [name, credentialField] of Object.entries(declaration.credentials ?? {})) {
    if (credentialField.kind !== 'string' || !credentialField.secret) continue
    const value = data?.[name]
    redacted[name] = value === undefined || value === null || value === '' ? 'not set' : 'set'
  }
  return redacted
}
