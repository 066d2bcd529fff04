import { memo, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Star } from 'lucide-react'
import {
  type ChatInputProps,
  cn,
  InputRow,
  optionFlag,
  optionNumber,
  optionText,
  sanitizeSvg,
  SendButton,
  useAutoFocus,
} from '#sdk/viewer'

/** The scale's values: icons count from 1, numbers from `startsAt`. */
export function ratingValues(isIcons: boolean, length: number, startsAt: number) {
  const size = Math.min(10, Math.max(1, Math.round(length)))
  const first = isIcons ? 1 : Math.max(0, Math.round(startsAt))
  return Array.from({ length: size }, (_, index) => first + index)
}

const RatingIcon = memo(function RatingIconView({
  svg,
  filled,
}: {
  svg?: string
  filled: boolean
}) {
  if (svg) {
    return (
      <span
        aria-hidden
        className={cn('block size-7 [&>svg]:size-full', filled ? 'opacity-100' : 'opacity-35')}
        dangerouslySetInnerHTML={{ __html: svg }}
      />
    )
  }
  return (
    <Star
      aria-hidden
      className={cn('size-7', filled ? 'fill-current' : 'fill-transparent opacity-60')}
    />
  )
})

export default function RatingInput({ input, disabled, onSubmit }: ChatInputProps) {
  const { t } = useTranslation()
  const options = input.options
  const isIcons = optionText(options, 'buttonType') === 'Icons'
  const oneClick = optionFlag(options, 'isOneClickSubmitEnabled') === true
  const values = ratingValues(
    isIcons,
    optionNumber(options, 'length') ?? 10,
    optionNumber(options, 'startsAt') ?? 0
  )
  const customSvg = optionFlag(options, 'customIcon.isEnabled')
    ? optionText(options, 'customIcon.svg')
    : undefined
  const svg = useMemo(() => (customSvg ? sanitizeSvg(customSvg) : undefined), [customSvg])
  const prefilled = Number(input.prefilledValue)
  const [value, setValue] = useState<number | undefined>(
    values.includes(prefilled) ? prefilled : undefined
  )
  const [hovered, setHovered] = useState<number | undefined>()
  const firstRef = useAutoFocus<HTMLButtonElement>()
  const left = optionText(options, 'labels.left')
  const right = optionText(options, 'labels.right')

  const pick = (rating: number) => {
    if (disabled) return
    if (oneClick) onSubmit({ text: String(rating) })
    else setValue(rating)
  }
  const shown = hovered ?? value

  return (
    <InputRow wide>
      <div className="flex w-full flex-col items-end gap-2" data-input-type={input.type}>
        <div
          role="group"
          aria-label={t('viewer.rating.label')}
          className="flex flex-wrap justify-end gap-1.5"
          onMouseLeave={() => setHovered(undefined)}
        >
          {values.map((rating, index) => {
            const checked = value === rating
            return (
              <button
                key={rating}
                ref={index === 0 ? firstRef : undefined}
                type="button"
                aria-pressed={checked}
                aria-label={t('viewer.rating.value', { value: rating, max: values.at(-1) })}
                disabled={disabled}
                onClick={() => pick(rating)}
                onMouseEnter={() => isIcons && setHovered(rating)}
                className={cn(
                  'inline-flex items-center justify-center disabled:cursor-not-allowed disabled:opacity-60',
                  isIcons
                    ? 'size-10 rounded-md text-(--fc-button-bg)'
                    : 'fc-button-outline size-10 text-[15px] font-medium'
                )}
              >
                {isIcons ? (
                  <RatingIcon svg={svg} filled={shown !== undefined && rating <= shown} />
                ) : (
                  rating
                )}
              </button>
            )
          })}
        </div>
        {(left || right) && (
          <div className="flex w-full max-w-md justify-between gap-4 self-end text-xs opacity-80">
            <span>{left}</span>
            <span>{right}</span>
          </div>
        )}
        {!oneClick && (
          <SendButton
            type="button"
            onClick={() => value !== undefined && onSubmit({ text: String(value) })}
            label={optionText(options, 'labels.button')}
            disabled={value === undefined}
            sending={disabled}
          />
        )}
      </div>
    </InputRow>
  )
}
