import type { InputParser } from '#sdk/plugin'
import type plugin from './index.js'

const HAS_SCHEME = /^[a-z][a-z\d+.-]*:\/\//i

/** The http(s) URL of an answer, with https:// added when the visitor left it out. */
export function normalizeUrl(text: string): string | undefined {
  const trimmed = text.trim()
  if (trimmed === '' || /\s/.test(trimmed)) return undefined
  const candidate = HAS_SCHEME.test(trimmed) ? trimmed : `https://${trimmed}`
  let url: URL
  try {
    url = new URL(candidate)
  } catch {
    return undefined
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined
  // "mailto:a@b.co" with https:// in front reads as user "mailto" at b.co.
  if (url.username || url.password) return undefined
  const host = url.hostname
  // A single word ("hello") parses as a host name but is not a site anyone means.
  const isIp = /^\d{1,3}(?:\.\d{1,3}){3}$/.test(host) || host.startsWith('[')
  const tld = host.split('.').at(-1) ?? ''
  if (
    !isIp &&
    host !== 'localhost' &&
    !(host.includes('.') && /^(?:[a-z]{2,}|xn--[a-z\d-]+)$/i.test(tld))
  ) {
    return undefined
  }
  return candidate
}

export const parse: InputParser<typeof plugin> = ({ answer }) => {
  const url = normalizeUrl(answer.text ?? '')
  return url ? { status: 'success', value: url } : { status: 'fail', reason: 'Not a valid URL' }
}
