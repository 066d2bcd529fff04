/**
 * Conversions between the text bubble's stored forms (Slate-like rich text, html, plain
 * text) and what the chat sends (rich text or markdown) or records (plain text); exported by
 * `@flowcraft/sdk/chat`.
 *
 * Imported by the app's engine, by the browser and by plugins: pure functions, no DOM, no
 * Node modules.
 */
import type { RichTextNode } from './chat.js'

const BLOCK_TYPES = new Set([
  'p',
  'paragraph',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'ul',
  'ol',
  'li',
  'lic',
])

function isBlock(node: RichTextNode) {
  return typeof node.type === 'string' && BLOCK_TYPES.has(node.type)
}

function childrenOf(node: RichTextNode): RichTextNode[] {
  return Array.isArray(node.children) ? node.children : []
}

function inlineText(nodes: RichTextNode[]): string {
  let text = ''
  for (const node of nodes) {
    if (!node || typeof node !== 'object') continue
    if (typeof node.text === 'string') text += node.text
    else text += inlineText(childrenOf(node))
  }
  return text
}

/** One line per block (paragraph, heading, list item), lines joined by "\n". */
export function richTextToPlainText(nodes: readonly RichTextNode[] | null | undefined): string {
  if (!Array.isArray(nodes)) return ''
  const lines: string[] = []
  const walk = (list: readonly RichTextNode[]) => {
    for (const node of list) {
      if (!node || typeof node !== 'object') continue
      const children = childrenOf(node)
      // A block holding other blocks (a list, a list item with a nested list) has no text of its own.
      if (children.some((child) => child && isBlock(child))) walk(children)
      else lines.push(typeof node.text === 'string' ? node.text : inlineText(children))
    }
  }
  walk(nodes)
  return lines.join('\n')
}

// ---------------------------------------------------------------------------
// Markdown
// ---------------------------------------------------------------------------

function escapeMarkdown(text: string) {
  return (
    text
      .replace(/[\\`*_~[\]<>]/g, '\\$&')
      // Only at a line start do these begin a heading, a quote or a list.
      .replace(/^(\s*)(#|>|[-+] |\d+\. )/gm, (_, space: string, marker: string) => {
        return `${space}\\${marker}`
      })
  )
}

/** Markdown markers cannot open or close on whitespace: keep it outside them. */
function wrap(text: string, marker: string) {
  const match = /^(\s*)([\s\S]*?)(\s*)$/.exec(text)!
  if (match[2] === '') return text
  return `${match[1]}${marker}${match[2]}${marker}${match[3]}`
}

function leafToMarkdown(leaf: RichTextNode) {
  // Code spans show their text as is: nothing inside them is escaped.
  if (leaf.code) return wrap(leaf.text ?? '', '`')
  let text = escapeMarkdown(leaf.text ?? '')
  if (leaf.bold && leaf.italic) text = wrap(text, '***')
  else if (leaf.bold) text = wrap(text, '**')
  else if (leaf.italic) text = wrap(text, '*')
  if (leaf.strikethrough) text = wrap(text, '~~')
  // Markdown has no underline; the text is kept without it.
  return text
}

function inlineToMarkdown(nodes: RichTextNode[]): string {
  let out = ''
  for (const node of nodes) {
    if (!node || typeof node !== 'object') continue
    if (typeof node.text === 'string') {
      out += leafToMarkdown(node)
    } else if (node.type === 'a' && typeof node.url === 'string' && node.url) {
      // A space or a parenthesis would end the link destination early.
      const url = node.url.replace(/\s/g, '%20').replace(/\(/g, '%28').replace(/\)/g, '%29')
      out += `[${inlineToMarkdown(childrenOf(node))}](${url})`
    } else {
      out += inlineToMarkdown(childrenOf(node))
    }
  }
  return out
}

function blocksToMarkdown(nodes: readonly RichTextNode[], lines: string[], prefix: string) {
  for (const node of nodes) {
    if (!node || typeof node !== 'object') continue
    const children = childrenOf(node)
    const type = node.type ?? 'p'
    if (type === 'ul' || type === 'ol') {
      let number = 1
      for (const item of children) {
        const marker = type === 'ol' ? `${number++}. ` : '- '
        const itemLines: string[] = []
        blocksToMarkdown(
          childrenOf(item).some((child) => child && isBlock(child)) ? childrenOf(item) : [item],
          itemLines,
          ''
        )
        itemLines.forEach((line, index) => {
          lines.push(prefix + (index === 0 ? marker : ' '.repeat(marker.length)) + line)
        })
      }
    } else if (children.some((child) => child && isBlock(child))) {
      blocksToMarkdown(children, lines, type === 'blockquote' ? `${prefix}> ` : prefix)
    } else {
      const heading = /^h([1-6])$/.exec(type)
      const text = typeof node.text === 'string' ? leafToMarkdown(node) : inlineToMarkdown(children)
      if (heading) lines.push(`${prefix}${'#'.repeat(Number(heading[1]))} ${text}`)
      else if (type === 'blockquote') lines.push(`${prefix}> ${text}`)
      else lines.push(prefix + text)
    }
  }
}

/**
 * Markdown of rich text. Each paragraph is a line (the editor writes one paragraph per
 * line), so an empty paragraph between two lines makes a markdown paragraph break.
 */
export function richTextToMarkdown(nodes: readonly RichTextNode[] | null | undefined): string {
  if (!Array.isArray(nodes)) return ''
  const lines: string[] = []
  blocksToMarkdown(nodes, lines, '')
  return lines.join('\n')
}

// ---------------------------------------------------------------------------
// Plain text and html to rich text
// ---------------------------------------------------------------------------

export function plainTextToRichText(text: string | null | undefined): RichTextNode[] {
  return String(text ?? '')
    .split(/\r?\n/)
    .map((line) => ({ type: 'p', children: [{ text: line }] }))
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
}

function decodeEntities(text: string) {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, body: string) => {
    if (body[0] === '#') {
      const code =
        body[1] === 'x' || body[1] === 'X'
          ? Number.parseInt(body.slice(2), 16)
          : Number.parseInt(body.slice(1), 10)
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity
    }
    return ENTITIES[body.toLowerCase()] ?? entity
  })
}

const HTML_BLOCKS = new Set([
  'p',
  'div',
  'li',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'ul',
  'ol',
  'section',
  'article',
  'header',
  'footer',
  'tr',
])
const MARKS: Record<string, 'bold' | 'italic' | 'underline' | 'strikethrough'> = {
  b: 'bold',
  strong: 'bold',
  i: 'italic',
  em: 'italic',
  u: 'underline',
  s: 'strikethrough',
  strike: 'strikethrough',
  del: 'strikethrough',
}
const SKIPPED = new Set(['script', 'style', 'head', 'title'])

const TOKEN = /<!--[\s\S]*?-->|<(\/?)([a-zA-Z][a-zA-Z0-9]*)((?:[^>"']|"[^"]*"|'[^']*')*)>|[^<]+|</g

function hrefOf(attributes: string) {
  const match = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(attributes)
  return match ? decodeEntities(match[1] ?? match[2] ?? match[3] ?? '').trim() : undefined
}

/**
 * Rich text of simple html (p, br, b/strong, i/em, u, a and other block tags as
 * paragraphs). A tokenizer, not a parser: unclosed or stray tags are tolerated.
 */
export function htmlToRichText(html: string | null | undefined): RichTextNode[] {
  const paragraphs: RichTextNode[] = []
  let current: RichTextNode[] = []
  // The innermost open link collects the leaves typed inside it.
  let link: RichTextNode | undefined
  const marks: Record<string, number> = { bold: 0, italic: 0, underline: 0, strikethrough: 0 }
  let skipping: string | undefined

  const endParagraph = (force = false) => {
    link = undefined
    const leaves = current
    current = []
    // Whitespace between tags is layout, not text: trim the paragraph's edges.
    const first = leaves[0]
    const last = leaves.at(-1)
    if (first && typeof first.text === 'string') first.text = first.text.replace(/^\s+/, '')
    if (last && typeof last.text === 'string') last.text = last.text.replace(/\s+$/, '')
    const kept = leaves.filter((leaf) => leaf.type === 'a' || leaf.text !== '')
    if (kept.length === 0 && !force) return
    paragraphs.push({ type: 'p', children: kept.length > 0 ? kept : [{ text: '' }] })
  }

  const addText = (raw: string) => {
    const text = decodeEntities(raw.replace(/\s+/g, ' '))
    if (text === '') return
    const previous = (link ? childrenOf(link) : current).at(-1)
    const previousText = previous?.text ?? ''
    // Collapsed whitespace never doubles across tags.
    const value = previousText.endsWith(' ') && text.startsWith(' ') ? text.slice(1) : text
    if (value === '') return
    const leaf: RichTextNode = { text: value }
    for (const [mark, depth] of Object.entries(marks)) if (depth > 0) leaf[mark] = true
    if (link) link.children!.push(leaf)
    else current.push(leaf)
  }

  for (const match of String(html ?? '').matchAll(TOKEN)) {
    const [token, closing, rawName, attributes] = match
    if (token.startsWith('<!--')) continue
    if (!rawName) {
      if (!skipping) addText(token)
      continue
    }
    const name = rawName.toLowerCase()
    if (skipping) {
      if (closing && name === skipping) skipping = undefined
      continue
    }
    if (SKIPPED.has(name)) {
      if (!closing && !attributes.trim().endsWith('/')) skipping = name
      continue
    }
    if (name === 'br') {
      endParagraph(true)
    } else if (HTML_BLOCKS.has(name)) {
      endParagraph()
    } else if (MARKS[name]) {
      const mark = MARKS[name]
      marks[mark] = Math.max(0, marks[mark] + (closing ? -1 : 1))
    } else if (name === 'a') {
      if (closing) {
        link = undefined
      } else {
        const url = hrefOf(attributes)
        if (url) {
          link = { type: 'a', url, children: [] }
          current.push(link)
        }
      }
    }
  }
  endParagraph()
  // Slate needs a text leaf in every element, links included.
  for (const paragraph of paragraphs) {
    for (const child of childrenOf(paragraph)) {
      if (child.type === 'a' && childrenOf(child).length === 0) child.children = [{ text: '' }]
    }
  }
  return paragraphs.length > 0 ? paragraphs : plainTextToRichText('')
}

function isNodeList(nodes: unknown): nodes is RichTextNode[] {
  return Array.isArray(nodes) && nodes.length > 0
}

/** The rich text of a text bubble's content: richText, else html, else plainText. */
export function textBubbleToRichText(
  content: { richText?: unknown; html?: unknown; plainText?: unknown } | null | undefined
): RichTextNode[] {
  if (isNodeList(content?.richText)) return content.richText
  if (typeof content?.html === 'string' && content.html.trim() !== '') {
    return htmlToRichText(content.html)
  }
  return plainTextToRichText(typeof content?.plainText === 'string' ? content.plainText : '')
}
