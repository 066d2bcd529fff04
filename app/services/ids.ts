import { randomBytes, randomFillSync } from 'node:crypto'

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz'
let lastTime = 0
let counter = 0

/*
 * Random bytes are drawn 4 KB at a time: a chat turn makes a few ids (its messages, a new
 * session and result), and a call into the generator per id, each with a Buffer of its own,
 * cost more than the id. Bytes are used once, in order.
 */
const RANDOM_POOL = Buffer.allocUnsafe(4096)
let poolOffset = RANDOM_POOL.length

/**
 * URL-safe ids of 25 characters that start with a letter and sort by creation time
 * (time in ms, a per-process counter, then randomness), used for every entity that
 * appears in URLs or bot JSON.
 */
export function newId(): string {
  // Ids keep their order when more than 1,296 come in one millisecond or the clock steps back:
  // the time part then runs ahead of the clock until the clock catches up.
  let now = Date.now()
  if (now <= lastTime) {
    now = lastTime
    counter++
    if (counter === 1296) {
      now++
      counter = 0
    }
  } else {
    counter = 0
  }
  lastTime = now
  const time = now.toString(36).padStart(9, '0')
  const seq = counter.toString(36).padStart(2, '0')
  if (poolOffset + 13 > RANDOM_POOL.length) {
    randomFillSync(RANDOM_POOL)
    poolOffset = 0
  }
  let rand = ''
  for (let i = poolOffset; i < poolOffset + 13; i++) rand += ALPHABET[RANDOM_POOL[i] % 36]
  poolOffset += 13
  return `c${time}${seq}${rand}`
}

/** Random secret token (hex). */
export function newToken(bytes = 32): string {
  return randomBytes(bytes).toString('hex')
}
