import type { Fetcher, Runner } from '#sdk/plugin'
import { listTextToSpeechModels, listVoices, speakToStoredMp3 } from './api.js'
import type plugin from './index.js'

/**
 * Convert text to speech: POST {baseUrl}/v1/text-to-speech/{voiceId} with `text` and
 * `model_id`; the MP3 that comes back is stored (audio/mpeg). A bot saves its public URL in
 * a variable; a workflow node outputs `{ url, voiceId, modelId, characters }`.
 */
const convertTextToSpeech: Runner<typeof plugin, 'Convert text to speech'> = async (context) => {
  const { options, variables, surface } = context
  const url = await speakToStoredMp3(context, options, () =>
    surface === 'bot' && !options.saveUrlInVariableId ? 'Save variable is missing' : undefined
  )
  if (!url) return
  if (options.saveUrlInVariableId) variables.set(options.saveUrlInVariableId, url)
  return {
    output: {
      url,
      voiceId: options.voiceId?.trim(),
      modelId: options.modelId?.trim() || null,
      characters: (options.text ?? '').length,
    },
  }
}

export default { 'Convert text to speech': convertTextToSpeech }

/** Live option lists of the voice and model fields (the editor asks them on demand). */
export const fetchers: Record<string, Fetcher<typeof plugin>> = {
  voices: ({ credentials, http, signal }) => listVoices(http, credentials, signal),
  models: ({ credentials, http, signal }) => listTextToSpeechModels(http, credentials, signal),
}
