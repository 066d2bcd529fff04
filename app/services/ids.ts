import { randomBytes } from 'node:crypto'

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz'
let lastTime = 0
let counter = 0

/**
 * URL-safe ids of 25 characters that start with a letter and sort by creation time
 * (time in ms, a per-process counter, then randomness), used for every entity that
 * appears in URLs or bot JSON.
 */
export function newId(): string {
  const now = Date.now()
  counter = now === lastTime ? counter + 1 : 0
  lastTime = now
  const time = now.toString(36).padStart(9, '0')
  const seq = (counter % 1296).toString(36).padStart(2, '0')
  const bytes = randomBytes(13)
  let rand = ''
  for (const b of bytes) rand += ALPHABET[b % 36]
  return `c${time}${seq}${rand}`
}

/** Random secret token (hex). */
export function newToken(bytes = 32): string {
  return randomBytes(bytes).toString('hex')
}
