import type { Runner } from '#sdk/plugin'
import type { EmbedMessage } from '#sdk/runner'
import type plugin from './index.js'

const DEFAULT_HEIGHT = 400

/** A height typed as a {{variable}} arrives as text once substituted. */
function heightOf(value: unknown) {
  if (typeof value === 'number' && Number.isFinite(value)) return value
  if (typeof value === 'string' && value.trim() !== '') {
    const number = Number(value)
    return Number.isFinite(number) ? number : value.trim()
  }
  return DEFAULT_HEIGHT
}

/** Builders may paste an iframe's code instead of its link. */
function urlOf(value: string | undefined) {
  const text = (value ?? '').trim()
  if (!text.startsWith('<')) return text
  const src = /\ssrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(text)
  return src ? (src[1] ?? src[2] ?? src[3]).replace(/&amp;/g, '&') : text
}

export const run: Runner<typeof plugin> = ({ options, bot }) => {
  const content: EmbedMessage['content'] = {
    url: urlOf(options.url),
    height: heightOf(options.height),
  }
  // The client holds the flow until the page posts this event, then sends its data back.
  if (options.waitForEvent) content.waitForEvent = { ...options.waitForEvent }
  const message: EmbedMessage = { id: bot!.block.id, type: 'embed', content }
  const waits = Boolean(options.waitForEvent?.isEnabled && options.waitForEvent.name)
  // The flow pauses until the client sends the event's data back (continueChat).
  if (waits) {
    return {
      messages: [message],
      pause: true,
      saveReplyInVariableId: options.waitForEvent?.saveDataInVariableId || undefined,
    }
  }
  return { messages: [message] }
}
