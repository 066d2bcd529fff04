/**
 * Ids and the content of a fresh bot. Browser-safe: the editor creates ids for the
 * blocks, items and edges it adds before the server ever sees them.
 */
import { DEFAULT_BOT_NAME, defaultSettings, defaultTheme, type BotV6 } from './types.js'

const LETTERS = 'abcdefghijklmnopqrstuvwxyz'
const ALPHABET = LETTERS + '0123456789'
export const ID_LENGTH = 25

/**
 * A 25-character id of lower-case letters and digits starting with a letter, so it is
 * url-safe, usable as a CSS/DOM id and looks like the ids other tools of the format
 * write. Uses the Web Crypto API, present in browsers and in Node 20 as a global.
 */
export function createId(): string {
  const bytes = new Uint8Array(ID_LENGTH)
  globalThis.crypto.getRandomValues(bytes)
  let id = LETTERS[bytes[0] % LETTERS.length]
  // 252 is the largest multiple of 36 below 256: rejecting above it keeps the draw uniform.
  let index = 1
  while (id.length < ID_LENGTH) {
    if (index >= bytes.length) {
      globalThis.crypto.getRandomValues(bytes)
      index = 0
    }
    const byte = bytes[index++]
    if (byte < 252) id += ALPHABET[byte % ALPHABET.length]
  }
  return id
}

/** The content of a new bot: one start event at the origin, nothing else. */
export function createBotContent(input: { name?: string } = {}): BotV6 {
  const name = input.name?.trim()
  return {
    version: '6',
    name: name || DEFAULT_BOT_NAME,
    groups: [],
    events: [{ id: createId(), type: 'start', graphCoordinates: { x: 0, y: 0 } }],
    edges: [],
    variables: [],
    theme: defaultTheme(),
    settings: defaultSettings(),
  }
}
