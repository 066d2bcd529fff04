import type { Fetcher, Runner } from '#sdk/plugin'
import { listTextToSpeechModels, listVoices, speakToStoredMp3 } from './api.js'
import type plugin from './index.js'

/**
 * Convert text to speech: POST {baseUrl}/v1/text-to-speech/{voiceId} with `text` and
 * `model_id`; the MP3 that comes back is stored (audio/mpeg) and its public URL saved.
 */
const convertTextToSpeech: Runner<typeof plugin, 'Convert text to speech'> = async (context) => {
  const { options, variables } = context
  const url = await speakToStoredMp3(context, options, () =>
    options.saveUrlInVariableId ? undefined : 'Save variable is missing'
  )
  if (url) variables.set(options.saveUrlInVariableId, url)
}

export default { 'Convert text to speech': convertTextToSpeech }

/** Live option lists of the voice and model fields (the editor asks them on demand). */
export const fetchers: Record<string, Fetcher<typeof plugin>> = {
  voices: ({ credentials, http, signal }) => listVoices(http, credentials, signal),
  models: ({ credentials, http, signal }) => listTextToSpeechModels(http, credentials, signal),
}
