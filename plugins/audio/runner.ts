import type { Runner } from '../../app/plugins/define_plugin.js'
import type { AudioMessage } from '../../app/shared/chat/types.js'
import type plugin from './index.js'

export const run: Runner<typeof plugin> = ({ options, bot }) => {
  const message: AudioMessage = {
    id: bot!.block.id,
    type: 'audio',
    content: { url: options.url ?? '', isAutoplayEnabled: options.isAutoplayEnabled ?? true },
  }
  return { messages: [message] }
}
