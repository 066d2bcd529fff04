import { useId, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import {
  type ChatInputProps,
  InputRow,
  optionFlag,
  optionText,
  SendButton,
  useAutoFocus,
} from '#sdk/viewer'

const ISO_DATE = /^\d{4}-\d{2}-\d{2}/

/** The native pickers speak ISO: 'YYYY-MM-DD', or 'YYYY-MM-DDTHH:mm' with time. */
function boundFor(value: string | undefined, hasTime: boolean) {
  if (!value || !ISO_DATE.test(value)) return undefined
  const date = value.slice(0, 10)
  if (!hasTime) return date
  const time = /T(\d{2}:\d{2})/.exec(value)?.[1] ?? '00:00'
  return `${date}T${time}`
}

/** A prefilled "from to to" answer split back into the two fields. */
function initialValues(prefilled: string | undefined, isRange: boolean): [string, string] {
  if (!prefilled) return ['', '']
  if (!isRange) return [prefilled, '']
  const [from = '', to = ''] = prefilled.split(' to ')
  return [from, to]
}

export default function DateInput({ input, disabled, onSubmit }: ChatInputProps) {
  const { t } = useTranslation()
  const options = input.options
  const hasTime = optionFlag(options, 'hasTime') === true
  const isRange = optionFlag(options, 'isRange') === true
  const [initialFrom, initialTo] = initialValues(input.prefilledValue, isRange)
  const [from, setFrom] = useState(initialFrom)
  const [to, setTo] = useState(initialTo)
  const firstRef = useAutoFocus<HTMLInputElement>()
  const id = useId()
  const type = hasTime ? 'datetime-local' : 'date'
  const min = boundFor(optionText(options, 'min'), hasTime)
  const max = boundFor(optionText(options, 'max'), hasTime)
  const ready = from !== '' && (!isRange || to !== '')

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault()
    if (!ready || disabled) return
    onSubmit({ text: isRange ? `${from} to ${to}` : from })
  }

  const fieldClass =
    'fc-input-field h-10 w-full min-w-0 bg-transparent px-3 text-[15px] outline-none'
  return (
    <InputRow>
      <form
        noValidate
        onSubmit={handleSubmit}
        className="fc-input flex w-full flex-col gap-2 p-2 sm:flex-row sm:items-end"
        data-input-type={input.type}
      >
        <div className="grid min-w-0 flex-1 gap-1">
          {isRange && (
            <label htmlFor={`${id}-from`} className="px-3 text-xs font-medium opacity-80">
              {optionText(options, 'labels.from') ?? t('viewer.date.from')}
            </label>
          )}
          <input
            id={`${id}-from`}
            ref={firstRef}
            type={type}
            value={from}
            min={min}
            max={isRange && to ? to : max}
            disabled={disabled}
            aria-label={isRange ? undefined : t('viewer.date.label')}
            onChange={(event) => setFrom(event.target.value)}
            className={fieldClass}
          />
        </div>
        {isRange && (
          <div className="grid min-w-0 flex-1 gap-1">
            <label htmlFor={`${id}-to`} className="px-3 text-xs font-medium opacity-80">
              {optionText(options, 'labels.to') ?? t('viewer.date.to')}
            </label>
            <input
              id={`${id}-to`}
              type={type}
              value={to}
              min={from || min}
              max={max}
              disabled={disabled}
              onChange={(event) => setTo(event.target.value)}
              className={fieldClass}
            />
          </div>
        )}
        <SendButton
          label={optionText(options, 'labels.button')}
          disabled={!ready}
          sending={disabled}
        />
      </form>
    </InputRow>
  )
}
