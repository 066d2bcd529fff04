import type { InputParser } from '#sdk/plugin'
import type plugin from './index.js'

const COORDINATES = /^([+-]?\d+(?:\.\d+)?)\s*,\s*([+-]?\d+(?:\.\d+)?)$/
const DEFAULT_NO_LABEL = 'No'

/**
 * "latitude, longitude" from the browser. The "no" button is an answer too: without it
 * a visitor who declines would be asked again forever (this block has no retry message).
 */
export const parse: InputParser<typeof plugin> = ({ answer, options }) => {
  const text = (answer.text ?? '').trim()
  const noLabel = options.labels?.no?.trim() || DEFAULT_NO_LABEL
  if (text !== '' && text.toLowerCase() === noLabel.toLowerCase()) {
    return { status: 'success', value: noLabel, variableValue: '' }
  }
  const match = COORDINATES.exec(text)
  if (!match) return { status: 'fail', reason: 'Expected "latitude, longitude"' }
  const latitude = Number(match[1])
  const longitude = Number(match[2])
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) {
    return { status: 'fail', reason: 'Coordinates out of range' }
  }
  return { status: 'success', value: `${latitude}, ${longitude}` }
}
