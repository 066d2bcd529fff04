import type { WorkflowRunner } from '#sdk/runner'
// The bot block's calls: same credentials, same protocol.
import { speakToStoredMp3 } from '../elevenlabs/api.js'
import type plugin from './index.js'

export { fetchers } from '../elevenlabs/runner.js'

/**
 * The output is `{ url, voiceId, modelId, characters }`; a missing voice or text, or a
 * refused call, is an error log, which fails the node (the workflow's retries and error
 * handling apply).
 */
export const run: WorkflowRunner<typeof plugin> = async (context) => {
  const { options } = context
  // A workflow node has no save variable: the URL is its output.
  const url = await speakToStoredMp3(context, options)
  if (!url) return
  const modelId = options.modelId?.trim() || null
  return {
    output: {
      url,
      voiceId: options.voiceId?.trim(),
      modelId,
      characters: (options.text ?? '').length,
    },
  }
}
