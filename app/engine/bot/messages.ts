import type { ChatMessage, TextBubbleContentFormat, TextMessageContent } from '#shared/chat/types'
import { richTextToPlainText } from '#shared/chat/rich_text'

/** The text of the engine's messages: plain text for transcripts, mentions of a variable. */

export function textContent(text: string, format: TextBubbleContentFormat): TextMessageContent {
  return format === 'markdown'
    ? { type: 'markdown', markdown: text }
    : {
        type: 'richText',
        richText: text.split('\n').map((line) => ({ type: 'p', children: [{ text: line }] })),
      }
}

/** The plain text of a message, for transcripts. */
export function messageText(message: ChatMessage): string {
  switch (message.type) {
    case 'text':
      return message.content.type === 'markdown'
        ? message.content.markdown
        : richTextToPlainText(message.content.richText)
    case 'image':
    case 'video':
    case 'audio':
    case 'embed':
      return message.content.url ?? ''
    default:
      return ''
  }
}

function escapeRegExp(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** Whether a text bubble's content shows {{name}} (rich text, plain text, html or markdown). */
export function textBubbleMentions(content: unknown, name: string): boolean {
  if (!content || typeof content !== 'object') return false
  const record = content as Record<string, unknown>
  const texts: string[] = []
  if (Array.isArray(record.richText)) texts.push(richTextToPlainText(record.richText as any))
  for (const key of ['plainText', 'html', 'markdown']) {
    if (typeof record[key] === 'string') texts.push(record[key] as string)
  }
  const pattern = new RegExp(`\\{\\{\\s*${escapeRegExp(name)}\\s*\\}\\}`)
  return texts.some((text) => pattern.test(text))
}
