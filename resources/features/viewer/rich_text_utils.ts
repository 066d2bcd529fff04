import type { ChatMessage, RichTextNode } from '#shared/chat/types'

/** Only these schemes become links: a bubble's text may hold a visitor's own answers. */
const SAFE_URL = /^(https?:|mailto:|tel:)/i

export function safeUrl(url: unknown): string | undefined {
  if (typeof url !== 'string') return undefined
  const trimmed = url.trim()
  if (!trimmed) return undefined
  if (SAFE_URL.test(trimmed)) return trimmed
  // Files stored by this app come back as paths of its own origin.
  if (trimmed.startsWith('/')) return trimmed
  // A bare domain ("example.com/page") is what builders most often type.
  if (/^[\w-]+(\.[\w-]+)+(\/|$)/.test(trimmed)) return `https://${trimmed}`
  return undefined
}

export function richTextToPlain(nodes: RichTextNode[] | undefined): string {
  if (!nodes) return ''
  return nodes
    .map((node) => (node.children ? richTextToPlain(node.children) : (node.text ?? '')))
    .join(' ')
}

/** The text a message would take to type, for the typing emulation. */
export function messagePlainText(message: ChatMessage): string {
  if (message.type !== 'text') return ''
  return message.content.type === 'markdown'
    ? message.content.markdown
    : richTextToPlain(message.content.richText)
}
