import type { Runner } from '#sdk/plugin'
import { CAL_DEFAULT_BASE_URL, CAL_LAYOUTS } from './index.js'
import type plugin from './index.js'

/** `ada/30min`, or the whole booking page address pasted instead, reduced to its path. */
function calLinkOf(link: string) {
  let value = link.trim()
  if (/^https?:\/\//i.test(value)) {
    try {
      value = new URL(value).pathname
    } catch {}
  }
  return value.replace(/^\/+|\/+$/g, '')
}

/**
 * Pauses the chat on a `calBooking` client-side action: the chat page shows the booking
 * widget and answers with the booked date once the visitor books, which the engine saves
 * in the variable (saveReplyInVariableId) before going on.
 */
export const run: Runner<typeof plugin> = ({ options, logger }) => {
  let baseUrl: string
  try {
    const url = new URL(options.baseUrl?.trim() || CAL_DEFAULT_BASE_URL)
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('scheme')
    baseUrl = url.origin
  } catch {
    logger.error(`Cal.com: "${options.baseUrl}" is not a valid URL`)
    return {}
  }
  const link = calLinkOf(options.link ?? '')
  if (!link) {
    logger.error('Cal.com: the event link is empty')
    return {}
  }
  const prefill = Object.fromEntries(
    (
      [
        ['name', options.name],
        ['email', options.email],
        ['notes', options.additionalNotes],
        ['phone', options.phone],
      ] as const
    )
      .map(([key, value]) => [key, value?.trim() ?? ''])
      .filter(([, value]) => value !== '')
  )
  return {
    clientSideActions: [
      {
        type: 'calBooking',
        calBooking: {
          baseUrl,
          link,
          layout: CAL_LAYOUTS[options.layout ?? 'Month'] ?? CAL_LAYOUTS.Month,
          prefill,
        },
      },
    ],
    pause: true,
    saveReplyInVariableId: options.saveBookedDateInVariableId || undefined,
  }
}
