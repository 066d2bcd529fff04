import { useState, type FormEvent, type KeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import {
  InputRow,
  SendButton,
  optionFlag,
  optionNumber,
  optionText,
  useAutoFocus,
  type ChatInputProps,
} from './shared'

export type FieldKind = 'text' | 'number' | 'email' | 'url'

const FIELD_ATTRIBUTES: Record<
  FieldKind,
  { type: string; inputMode?: 'decimal' | 'email' | 'url' | 'text'; autoComplete?: string }
> = {
  text: { type: 'text', inputMode: 'text' },
  number: { type: 'number', inputMode: 'decimal' },
  email: { type: 'email', inputMode: 'email', autoComplete: 'email' },
  // type=text: the browser would refuse "example.com" while the server accepts it.
  url: { type: 'text', inputMode: 'url', autoComplete: 'url' },
}

/**
 * One themed field with its send button inside, shared by the text-like input plugins (text,
 * number, email, URL) and used for an input type no plugin supplies a viewer for.
 */
export function TextFieldInput({
  input,
  disabled,
  onSubmit,
  kind,
}: ChatInputProps & { kind: FieldKind }) {
  const { t } = useTranslation()
  const options = input.options
  const isLong = kind === 'text' && optionFlag(options, 'isLong') === true
  const [value, setValue] = useState(input.prefilledValue ?? '')
  const textRef = useAutoFocus<HTMLInputElement>(true)
  const areaRef = useAutoFocus<HTMLTextAreaElement>(true)
  const placeholder =
    optionText(options, 'labels.placeholder') ?? t(`viewer.input.placeholder.${kind}`)
  const blank = value.trim() === ''

  const send = () => {
    if (blank || disabled) return
    onSubmit({ text: kind === 'text' ? value : value.trim() })
  }
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault()
    send()
  }
  // Enter sends a long answer too; Shift+Enter (or an IME composing) makes a new line.
  const handleAreaKey = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return
    event.preventDefault()
    send()
  }

  const attributes = FIELD_ATTRIBUTES[kind]
  const fieldClass =
    'fc-input-field w-full min-w-0 bg-transparent px-3 text-[15px] outline-none disabled:opacity-60'
  return (
    <InputRow>
      <form
        noValidate
        onSubmit={handleSubmit}
        className="fc-input flex w-full items-end gap-1 p-1"
        data-input-type={input.type}
      >
        {isLong ? (
          <textarea
            ref={areaRef}
            value={value}
            rows={3}
            disabled={disabled}
            placeholder={placeholder}
            aria-label={placeholder}
            onChange={(event) => setValue(event.target.value)}
            onKeyDown={handleAreaKey}
            className={`${fieldClass} field-sizing-content max-h-48 min-h-20 resize-none py-2`}
          />
        ) : (
          <input
            ref={textRef}
            type={attributes.type}
            inputMode={attributes.inputMode}
            autoComplete={attributes.autoComplete}
            value={value}
            disabled={disabled}
            placeholder={placeholder}
            aria-label={placeholder}
            min={kind === 'number' ? optionNumber(options, 'min') : undefined}
            max={kind === 'number' ? optionNumber(options, 'max') : undefined}
            step={kind === 'number' ? (optionNumber(options, 'step') ?? 'any') : undefined}
            onChange={(event) => setValue(event.target.value)}
            className={`${fieldClass} h-10`}
          />
        )}
        <SendButton
          label={optionText(options, 'labels.button')}
          disabled={blank}
          sending={disabled}
        />
      </form>
    </InputRow>
  )
}
