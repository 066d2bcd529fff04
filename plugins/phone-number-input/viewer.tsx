import { memo, useId, useMemo, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import parsePhoneNumber, {
  getCountries,
  getCountryCallingCode,
  type CountryCode,
} from 'libphonenumber-js/min'
import { type ChatInputProps, InputRow, optionText, SendButton, useAutoFocus } from '#sdk/viewer'

const INTERNATIONAL = 'INT'

function flagOf(country: string) {
  // Regional indicator letters: "FR" becomes the French flag where the font has it.
  return String.fromCodePoint(...[...country.toUpperCase()].map((c) => 0x1f1a5 + c.charCodeAt(0)))
}

function isCountry(value: string | undefined): value is CountryCode {
  return Boolean(value) && (getCountries() as string[]).includes(value!.toUpperCase())
}

/** The number with its +code (E.164 when it parses; the server validates either way). */
export function internationalNumber(raw: string, country: string): string {
  const text = raw.trim()
  if (text.startsWith('+') || !isCountry(country)) {
    return parsePhoneNumber(text)?.number ?? text
  }
  const code = country.toUpperCase() as CountryCode
  const parsed = parsePhoneNumber(text, code)
  if (parsed) return parsed.number
  return `+${getCountryCallingCode(code)}${text.replace(/[^\d]/g, '')}`
}

/** A prefilled "+33..." answer opens on its country. */
function countryOfNumber(value: string | undefined) {
  if (!value?.startsWith('+')) return undefined
  return parsePhoneNumber(value)?.country
}

const CountryOptions = memo(function CountryOptionsView({ language }: { language: string }) {
  const { t } = useTranslation()
  const options = useMemo(() => {
    let names: Intl.DisplayNames | undefined
    try {
      names = new Intl.DisplayNames([language, 'en'], { type: 'region' })
    } catch {
      names = undefined
    }
    return getCountries()
      .map((country) => ({
        country,
        label: `${flagOf(country)} ${names?.of(country) ?? country} (+${getCountryCallingCode(country)})`,
        sortKey: names?.of(country) ?? country,
      }))
      .sort((a, b) => a.sortKey.localeCompare(b.sortKey, language))
  }, [language])
  return (
    <>
      <option value={INTERNATIONAL}>{`🌐 ${t('viewer.phone.international')}`}</option>
      {options.map((option) => (
        <option key={option.country} value={option.country}>
          {option.label}
        </option>
      ))}
    </>
  )
})

export default function PhoneInput({ input, disabled, onSubmit }: ChatInputProps) {
  const { t, i18n } = useTranslation()
  const options = input.options
  const configured = optionText(options, 'defaultCountryCode')?.toUpperCase()
  const [country, setCountry] = useState<string>(
    countryOfNumber(input.prefilledValue) ?? (isCountry(configured) ? configured : INTERNATIONAL)
  )
  const [value, setValue] = useState(input.prefilledValue ?? '')
  const ref = useAutoFocus<HTMLInputElement>(true)
  const id = useId()
  const placeholder =
    optionText(options, 'labels.placeholder') ?? t('viewer.input.placeholder.phone')
  const blank = value.trim() === ''

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault()
    if (blank || disabled) return
    onSubmit({ text: internationalNumber(value, country) })
  }

  return (
    <InputRow>
      <form
        noValidate
        onSubmit={handleSubmit}
        className="fc-input flex w-full items-center gap-1 p-1"
        data-input-type={input.type}
      >
        <label htmlFor={`${id}-country`} className="sr-only">
          {t('viewer.phone.country')}
        </label>
        <select
          id={`${id}-country`}
          value={country}
          disabled={disabled}
          onChange={(event) => setCountry(event.target.value)}
          className="fc-input-field h-10 w-24 shrink-0 cursor-pointer truncate rounded bg-transparent px-2 text-[15px] outline-none sm:w-32"
        >
          <CountryOptions language={i18n.language} />
        </select>
        <input
          ref={ref}
          type="tel"
          inputMode="tel"
          autoComplete={country === INTERNATIONAL ? 'tel' : 'tel-national'}
          value={value}
          disabled={disabled}
          placeholder={placeholder}
          aria-label={placeholder}
          onChange={(event) => setValue(event.target.value)}
          className="fc-input-field h-10 w-full min-w-0 bg-transparent px-2 text-[15px] outline-none"
        />
        <SendButton
          label={optionText(options, 'labels.button')}
          disabled={blank}
          sending={disabled}
        />
      </form>
    </InputRow>
  )
}
