import type { Runner } from '#sdk/plugin'
import type { AudioMessage } from '#sdk/runner'
import type plugin from './index.js'

export const run: Runner<typeof plugin> = ({ options, bot }) => {
  const message: AudioMessage = {
    id: bot!.block.id,
    type: 'audio',
    content: { url: options.url ?? '', isAutoplayEnabled: options.isAutoplayEnabled ?? true },
  }
  return { messages: [message] }
}
