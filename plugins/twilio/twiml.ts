/** What both call actions share to write TwiML. */

export const escapeXml = (text: string) =>
  text.replace(
    /[<>&'"]/g,
    (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[char]!
  )

/** Seconds or a count from a number option, its default when unset, within bounds. */
export function bounded(value: unknown, fallback: number, min: number, max: number) {
  const number = Number(value ?? fallback)
  return Math.min(Math.max(Number.isFinite(number) ? Math.round(number) : fallback, min), max)
}

export const twimlResponse = (verbs: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><Response>${verbs}</Response>`
