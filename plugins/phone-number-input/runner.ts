import {
  isSupportedCountry,
  parsePhoneNumberFromString,
  type CountryCode,
} from 'libphonenumber-js/max'
import type { InputParser } from '#sdk/plugin'
import type plugin from './index.js'

// The max metadata checks number ranges, not only lengths: typos are refused.

/** 'INT' (or nothing) means the visitor types the international prefix. */
function countryOf(code: unknown): CountryCode | undefined {
  if (typeof code !== 'string') return undefined
  const upper = code.trim().toUpperCase()
  return upper !== 'INT' && isSupportedCountry(upper) ? upper : undefined
}

export const parse: InputParser<typeof plugin> = ({ answer, options }) => {
  const text = (answer.text ?? '').trim()
  const phone = text
    ? parsePhoneNumberFromString(text, countryOf(options.defaultCountryCode))
    : undefined
  return phone?.isValid()
    ? { status: 'success', value: phone.number }
    : { status: 'fail', reason: 'Not a valid phone number' }
}
