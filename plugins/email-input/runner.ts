import type { InputParser } from '#sdk/plugin'
import type plugin from './index.js'

const LOCAL = /^[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+(?:\.[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+)*$/u
const LABEL = /^[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?$/u

export function isEmail(text: string) {
  if (text.length > 254) return false
  const at = text.lastIndexOf('@')
  if (at <= 0 || at > 64) return false
  const labels = text.slice(at + 1).split('.')
  // A top-level domain of letters: "a@b" or "a@1.2.3.4" are not addresses people type.
  return (
    LOCAL.test(text.slice(0, at)) &&
    labels.length >= 2 &&
    labels.every((label) => LABEL.test(label)) &&
    /^\p{L}{2,}$/u.test(labels.at(-1)!)
  )
}

export const parse: InputParser<typeof plugin> = ({ answer }) => {
  const email = (answer.text ?? '').trim().toLowerCase()
  return isEmail(email)
    ? { status: 'success', value: email }
    : { status: 'fail', reason: 'Not a valid e-mail address' }
}
