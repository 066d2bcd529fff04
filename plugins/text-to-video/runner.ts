import type { Runner } from '#sdk/plugin'
import { toVariableValue } from '#sdk/runner'
import { callBrain } from '#sdk/brain'
import { DEFAULT_VIDEO_FIELD } from './index.js'
import type plugin from './index.js'

/**
 * POST /generate-video on the brain service, then each mapping saves a field of the answer
 * (a missing one is logged by name). A workflow node outputs the whole answer; a failure
 * fails it, while a bot logs it and goes on.
 */
export const run: Runner<typeof plugin> = async ({
  surface,
  options,
  variables,
  logger,
  signal,
}) => {
  const mode = options.videoMode?.trim()
  const language = options.language?.trim()
  const topic = options.scriptPrompt?.trim()
  const missing = [!mode && 'video mode', !language && 'language', !topic && 'topic'].filter(
    Boolean
  )
  if (missing.length > 0) {
    logger.error(
      `Text to Video: the ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} empty`
    )
    return {}
  }
  let answer: Record<string, unknown>
  try {
    answer = await callBrain(
      '/generate-video',
      {
        mode,
        language,
        topic,
        background_music: options.backgroundMusic?.trim() || null,
      },
      { signal }
    )
  } catch (error) {
    if (surface === 'workflow') throw error
    logger.error(
      `Text to Video: ${(error as Error).message}`,
      (error as { details?: unknown }).details
    )
    return {}
  }
  for (const mapping of options.responseMapping ?? []) {
    if (!mapping.variableId) continue
    const entry = mapping as { field?: string; fieldName?: string }
    const name = (entry.field ?? entry.fieldName ?? '').trim() || DEFAULT_VIDEO_FIELD
    if (!(name in answer)) {
      logger.error(`Field ${name} does not exist in the API response`)
      continue
    }
    variables.set(mapping.variableId, toVariableValue(answer[name]))
  }
  logger.success('Text to Video: the video was made', answer)
  return { output: answer }
}
