import type { Runner } from '#sdk/plugin'
import type { ImageMessage } from '#sdk/runner'
import type plugin from './index.js'

export const run: Runner<typeof plugin> = ({ options, bot }) => {
  const content: ImageMessage['content'] = { url: options.url ?? '' }
  const link = options.clickLink
  if (link?.url) content.clickLink = link.alt ? { url: link.url, alt: link.alt } : { url: link.url }
  else if (link?.alt) content.clickLink = { alt: link.alt }
  const message: ImageMessage = { id: bot!.block.id, type: 'image', content }
  return { messages: [message] }
}
