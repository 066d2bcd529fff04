import type { InputParser } from '#sdk/plugin'
import type plugin from './index.js'

function urlsOf(list: unknown): string[] {
  return Array.isArray(list)
    ? list.filter((url): url is string => typeof url === 'string' && url.trim() !== '')
    : []
}

/** Any text; with attachments allowed, files alone are an answer too. */
export const parse: InputParser<typeof plugin> = ({ answer }) => {
  const text = (answer.text ?? '').trim()
  const attachedFileUrls = urlsOf(answer.attachedFileUrls)
  if (text === '' && attachedFileUrls.length === 0) {
    return { status: 'fail', reason: 'The answer is empty' }
  }
  return {
    status: 'success',
    value: text === '' ? attachedFileUrls.join(', ') : text,
    ...(attachedFileUrls.length > 0 ? { attachedFileUrls } : {}),
  }
}
