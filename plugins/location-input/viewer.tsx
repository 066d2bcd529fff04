import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { MapPin } from 'lucide-react'
import {
  type ChatInputProps,
  InputError,
  InputRow,
  optionText,
  SendButton,
  useAutoFocus,
} from '#sdk/viewer'

/** At most six decimals (about 10 cm, more than a browser's fix is worth), no padding. */
export function formatPosition(latitude: number, longitude: number) {
  const round = (value: number) => String(Number(value.toFixed(6)))
  return `${round(latitude)}, ${round(longitude)}`
}

export default function LocationInput({ input, disabled, onSubmit }: ChatInputProps) {
  const { t } = useTranslation()
  const options = input.options
  const [locating, setLocating] = useState(false)
  const [error, setError] = useState<string | undefined>()
  const yesRef = useAutoFocus<HTMLButtonElement>()
  const noLabel = optionText(options, 'labels.no') ?? t('viewer.location.no')

  const share = () => {
    if (disabled || locating) return
    if (!('geolocation' in navigator)) {
      setError(t('viewer.location.unsupported'))
      return
    }
    setError(undefined)
    setLocating(true)
    navigator.geolocation.getCurrentPosition(
      (position) => {
        setLocating(false)
        onSubmit({ text: formatPosition(position.coords.latitude, position.coords.longitude) })
      },
      (failure) => {
        setLocating(false)
        setError(
          failure.code === failure.PERMISSION_DENIED
            ? t('viewer.location.denied')
            : t('viewer.location.unavailable')
        )
      },
      { enableHighAccuracy: true, timeout: 15_000, maximumAge: 60_000 }
    )
  }

  return (
    <InputRow>
      <div className="flex flex-col items-end gap-2" data-input-type={input.type}>
        <p className="flex items-center gap-2 text-sm opacity-80">
          <MapPin className="size-4" aria-hidden />
          {optionText(options, 'labels.question') ?? t('viewer.location.question')}
        </p>
        <div className="flex gap-2">
          <button
            type="button"
            disabled={disabled || locating}
            onClick={() => onSubmit({ text: noLabel })}
            className="fc-button-outline h-10 px-4 text-sm font-medium disabled:opacity-60"
          >
            {noLabel}
          </button>
          <SendButton
            type="button"
            onClick={share}
            label={optionText(options, 'labels.yes') ?? t('viewer.location.yes')}
            sending={disabled || locating}
            ref={yesRef}
          />
        </div>
        {locating && (
          <p role="status" className="text-sm opacity-80">
            {t('viewer.location.locating')}
          </p>
        )}
        <InputError>{error}</InputError>
      </div>
    </InputRow>
  )
}
