import type { ChatReply } from '#shared/chat/types'
import { channelPlain, channelText, type ChannelMarkup } from './formatting.js'

/**
 * A chat reply as the messages a channel sends, in order: texts in the channel's markup,
 * media by URL, and the question's choices as buttons. Each channel's adapter turns these
 * into its API calls.
 */

export interface Choice {
  /** What comes back when pressed: the item's id (the choice inputs accept it as an answer). */
  id: string
  label: string
}

export type Outgoing =
  | { kind: 'text'; text: string }
  | { kind: 'image' | 'video' | 'audio' | 'file'; url: string }
  | { kind: 'choices'; text: string; choices: Choice[] }

/** Asked when a question with buttons follows no text of the bot. */
export const CHOICES_PROMPT = 'Choose an option:'

const FILE_EXTENSION = /\.(pdf|docx?|xlsx?|pptx?|csv|txt|zip|rtf|odt|ods)(\?|#|$)/i

function videoUrl(content: { url?: string; id?: string; type?: string }): string | undefined {
  if (content.type === 'youtube' && content.id)
    return `https://www.youtube.com/watch?v=${content.id}`
  if (content.type === 'vimeo' && content.id) return `https://vimeo.com/${content.id}`
  if (content.type === 'tiktok' && content.id)
    return `https://www.tiktok.com/embed/v2/${content.id}`
  return content.url || undefined
}

function isDirectVideo(content: { url?: string; type?: string }) {
  return (!content.type || content.type === 'url') && !!content.url
}

function labelOf(item: Record<string, unknown>): string {
  for (const key of ['content', 'title']) {
    const value = item[key]
    if (typeof value === 'string' && value.trim()) return value
  }
  return String(item.id ?? '')
}

export function outgoingOf(reply: ChatReply, markup: ChannelMarkup): Outgoing[] {
  const out: Outgoing[] = []
  for (const message of reply.messages) {
    switch (message.type) {
      case 'text': {
        const text = channelText(message.content, markup)
        if (text) out.push({ kind: 'text', text })
        break
      }
      case 'image':
        if (message.content.url) out.push({ kind: 'image', url: message.content.url })
        break
      case 'video': {
        const url = videoUrl(message.content)
        if (!url) break
        // Players of video sites are links; a file is sent as a video.
        if (isDirectVideo(message.content)) out.push({ kind: 'video', url })
        else out.push({ kind: 'text', text: channelPlain(url, markup) })
        break
      }
      case 'audio':
        if (message.content.url) out.push({ kind: 'audio', url: message.content.url })
        break
      case 'embed': {
        const url = message.content.url
        if (!url) break
        if (FILE_EXTENSION.test(url)) out.push({ kind: 'file', url })
        else out.push({ kind: 'text', text: channelPlain(url, markup) })
        break
      }
    }
  }
  const items = reply.input?.items as Record<string, unknown>[] | undefined
  if (items?.length) {
    const last = out.at(-1)
    // The question's last text carries the buttons (a message needs a text).
    const text = last?.kind === 'text' ? (out.pop() as { text: string }).text : CHOICES_PROMPT
    out.push({
      kind: 'choices',
      text,
      choices: items.map((item) => ({ id: String(item.id ?? ''), label: labelOf(item) })),
    })
  }
  for (const error of [reply.chatLimitExceededError, reply.aiCreditLimitExceededError]) {
    if (error) out.push({ kind: 'text', text: channelPlain(error, markup) })
  }
  return out
}
