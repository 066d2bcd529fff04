import type { InputParser } from '#sdk/plugin'
import type plugin from './index.js'

const DEFAULT_SKIP_LABEL = 'Skip'

/** An uploaded file's URL: absolute http(s), or a path of this app. */
function fileUrl(candidate: string, appUrl: string | undefined): string | undefined {
  try {
    const url =
      candidate.startsWith('/') && appUrl ? new URL(candidate, appUrl) : new URL(candidate)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined
  } catch {
    return undefined
  }
}

/**
 * The URLs of the uploaded files, from the text (one URL, or several joined by ", ")
 * and the attached files. A file input that is not required may be skipped.
 */
export const parse: InputParser<typeof plugin> = ({ answer, options, bot }) => {
  const text = (answer.text ?? '').trim()
  const attached = Array.isArray(answer.attachedFileUrls) ? answer.attachedFileUrls : []
  const skipLabel = options.labels?.skip?.trim() || DEFAULT_SKIP_LABEL
  const isSkip = text === '' || text.toLowerCase() === skipLabel.toLowerCase()
  if (isSkip && attached.length === 0) {
    if (options.isRequired === false) {
      // The skip label is the visitor's message; the variable is emptied, not given "Skip".
      return { status: 'success', value: skipLabel, variableValue: '' }
    }
    return { status: 'fail', reason: 'A file is required' }
  }

  const candidates = [...(isSkip ? [] : text.split(/,\s+/)), ...attached]
  const urls: string[] = []
  for (const candidate of candidates) {
    const url = typeof candidate === 'string' ? fileUrl(candidate.trim(), bot?.appUrl) : undefined
    if (!url) return { status: 'fail', reason: `Not a file URL: ${String(candidate)}` }
    if (!urls.includes(url)) urls.push(url)
  }
  if (urls.length > 1 && !options.isMultipleAllowed) {
    return { status: 'fail', reason: 'Only one file is allowed' }
  }
  return { status: 'success', value: urls.join(', '), attachedFileUrls: urls }
}
