import type { Block, ConditionContent, Item, Variable } from '#shared/bot/types'

/** Text of Slate-like rich text nodes ({children: [{text}]}), lines joined by spaces. */
function richTextToPlain(nodes: unknown): string {
  if (!Array.isArray(nodes)) return ''
  const parts: string[] = []
  const walk = (node: unknown) => {
    if (!node || typeof node !== 'object') return
    const record = node as { text?: unknown; children?: unknown }
    if (typeof record.text === 'string') parts.push(record.text)
    if (Array.isArray(record.children)) record.children.forEach(walk)
  }
  for (const node of nodes) {
    walk(node)
    parts.push(' ')
  }
  return parts.join('').replace(/\s+/g, ' ').trim()
}

function stripHtml(html: string) {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
}

/** The plain text of a text bubble, whichever of plainText, richText or html it carries. */
export function textBubbleText(block: Block): string {
  const content = block.content ?? {}
  if (typeof content.plainText === 'string' && content.plainText.trim()) return content.plainText
  const rich = richTextToPlain(content.richText)
  if (rich) return rich
  if (typeof content.html === 'string') return stripHtml(content.html)
  return ''
}

/** Rich text (one paragraph per line) for a plain text typed in the editor. */
export function plainToRichText(text: string) {
  return text.split('\n').map((line) => ({ type: 'p', children: [{ text: line }] }))
}

function variableName(variables: Variable[], id: unknown) {
  if (typeof id !== 'string' || !id) return undefined
  return variables.find((variable) => variable.id === id)?.name
}

/** A comparison's left side that is an expression rather than a variable's id. */
function expressionOf(subject: unknown) {
  return typeof subject === 'string' && subject.includes('{{') ? subject : '…'
}

function firstString(record: Record<string, unknown> | undefined, keys: string[]) {
  for (const key of keys) {
    const value = record?.[key]
    if (typeof value === 'string' && value.trim()) return value.trim()
  }
  return undefined
}

/**
 * One line describing a block inside its group node: a bubble's text or url, an input's
 * placeholder and the variable it saves to, a logic block's main setting. Empty when
 * there is nothing to say (the node then shows the plugin name alone).
 */
export function blockSummary(block: Block, variables: Variable[]): string {
  const options = block.options ?? {}
  if (block.type === 'text') return textBubbleText(block)
  const parts: string[] = []
  const labels = options.labels as Record<string, unknown> | undefined
  const main =
    firstString(labels, ['placeholder']) ??
    firstString(options, ['placeholder', 'url', 'expressionToEvaluate', 'name', 'action']) ??
    firstString(block.content, ['url', 'plainText'])
  const saved = variableName(variables, options.variableId)
  if (main) parts.push(main)
  if (saved) parts.push(`→ {{${saved}}}`)
  if (typeof options.secondsToWaitFor === 'number' || typeof options.secondsToWaitFor === 'string')
    parts.push(`${options.secondsToWaitFor}s`)
  return parts.join(' ')
}

/** One line for an item: a button's text, a condition's comparisons, an AB test path. */
export function itemSummary(block: Block, item: Item, variables: Variable[]): string {
  if (item.path === 'a' || item.path === 'b') {
    const percent = Number(block.options?.aPercent ?? 50)
    return `${item.path.toUpperCase()} (${item.path === 'a' ? percent : 100 - percent}%)`
  }
  if (typeof item.content === 'string') return item.content
  if (item.title) return String(item.title)
  const condition = item.content as ConditionContent | undefined
  if (condition && Array.isArray(condition.comparisons)) {
    return condition.comparisons
      .map((comparison) =>
        [
          variableName(variables, comparison.variableId) ?? expressionOf(comparison.variableId),
          comparison.comparisonOperator ?? '',
          comparison.value ?? '',
        ]
          .filter(Boolean)
          .join(' ')
      )
      .join(` ${condition.logicalOperator ?? 'AND'} `)
  }
  return ''
}
