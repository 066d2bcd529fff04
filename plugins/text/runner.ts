import type { Runner } from '#sdk/plugin'
import { richTextToMarkdown, textBubbleToRichText, type TextMessage } from '#sdk/runner'
import type plugin from './index.js'

/** Sends the bubble as rich text, or as markdown to clients that asked for it (API, channels). */
export const run: Runner<typeof plugin> = ({ options, bot }) => {
  const richText = textBubbleToRichText(options)
  const message: TextMessage = {
    id: bot!.block.id,
    type: 'text',
    content:
      bot!.textBubbleContentFormat === 'markdown'
        ? { type: 'markdown', markdown: richTextToMarkdown(richText) }
        : { type: 'richText', richText },
  }
  return { messages: [message] }
}
