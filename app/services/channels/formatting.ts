import type { RichTextNode, TextMessageContent } from '#shared/chat/types'
import { richTextToPlainText } from '#shared/chat/rich_text'

/**
 * A text bubble as a messaging channel shows it: Telegram reads a subset of HTML
 * (parse_mode HTML: b, i, u, s, code, a), WhatsApp its own markers (*bold*, _italic_,
 * ~strike~, ```mono```) and no links, so a link shows its address beside its text.
 */

export type ChannelMarkup = 'telegram' | 'whatsapp'

const BLOCKS = new Set([
  'p',
  'paragraph',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'li',
  'lic',
])

function escapeHtml(text: string) {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

function escapeAttribute(text: string) {
  return escapeHtml(text).replace(/"/g, '&quot;')
}

/** WhatsApp markers cannot open or close on whitespace: keep it outside them. */
function wrap(text: string, open: string, close = open) {
  const match = /^(\s*)([\s\S]*?)(\s*)$/.exec(text)!
  if (match[2] === '') return text
  return `${match[1]}${open}${match[2]}${close}${match[3]}`
}

function leaf(node: RichTextNode, markup: ChannelMarkup): string {
  const raw = node.text ?? ''
  if (markup === 'telegram') {
    let text = escapeHtml(raw)
    if (!text) return text
    if (node.code) return `<code>${text}</code>`
    if (node.bold) text = `<b>${text}</b>`
    if (node.italic) text = `<i>${text}</i>`
    if (node.underline) text = `<u>${text}</u>`
    if (node.strikethrough) text = `<s>${text}</s>`
    return text
  }
  if (node.code) return wrap(raw, '```')
  let text = raw
  if (node.bold) text = wrap(text, '*')
  if (node.italic) text = wrap(text, '_')
  if (node.strikethrough) text = wrap(text, '~')
  // WhatsApp has no underline: the text is kept without it.
  return text
}

function inline(nodes: RichTextNode[] | undefined, markup: ChannelMarkup): string {
  let out = ''
  for (const node of nodes ?? []) {
    if (!node || typeof node !== 'object') continue
    if (typeof node.text === 'string') out += leaf(node, markup)
    else if (node.type === 'a' && typeof node.url === 'string' && node.url) {
      const label = inline(node.children, markup)
      if (markup === 'telegram') out += `<a href="${escapeAttribute(node.url)}">${label}</a>`
      else {
        const plain = richTextToPlainText(node.children ?? [])
        out += plain && plain !== node.url ? `${label} (${node.url})` : node.url
      }
    } else out += inline(node.children, markup)
  }
  return out
}

function blocks(nodes: readonly RichTextNode[], markup: ChannelMarkup, lines: string[]) {
  for (const node of nodes) {
    if (!node || typeof node !== 'object') continue
    const children = Array.isArray(node.children) ? node.children : []
    const type = node.type ?? 'p'
    if (type === 'ul' || type === 'ol') {
      children.forEach((item, index) => {
        const marker = type === 'ol' ? `${index + 1}. ` : '• '
        const itemLines: string[] = []
        const nested = (item.children ?? []).some((child) => BLOCKS.has(String(child?.type)))
        blocks(nested ? (item.children ?? []) : [item], markup, itemLines)
        itemLines.forEach((line, i) => lines.push((i === 0 ? marker : '   ') + line))
      })
    } else if (children.some((child) => child && BLOCKS.has(String(child.type)))) {
      blocks(children, markup, lines)
    } else {
      const text = typeof node.text === 'string' ? leaf(node, markup) : inline(children, markup)
      if (/^h[1-6]$/.test(type) && text) {
        lines.push(markup === 'telegram' ? `<b>${text}</b>` : wrap(text, '*'))
      } else lines.push(text)
    }
  }
}

/** The text of a text bubble in the channel's markup. */
export function channelText(content: TextMessageContent, markup: ChannelMarkup): string {
  if (content.type === 'markdown') {
    // Only rich text is asked from the engine; markdown is sent as it is, escaped for HTML.
    return markup === 'telegram' ? escapeHtml(content.markdown) : content.markdown
  }
  const lines: string[] = []
  blocks(content.richText ?? [], markup, lines)
  return lines.join('\n').trim()
}

/** Plain text (buttons, captions), with the HTML escaped for Telegram. */
export function channelPlain(text: string, markup: ChannelMarkup) {
  return markup === 'telegram' ? escapeHtml(text) : text
}
