import { memo, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Check } from 'lucide-react'
import {
  type ChatInputProps,
  cn,
  FilterBox,
  InputRow,
  useChoiceSelection,
  normalizeSearch,
  optionFlag,
  optionText,
  safeUrl,
  SendButton,
  useAutoFocus,
} from '#sdk/viewer'

interface Picture {
  id: string
  src?: string
  title?: string
  description?: string
  /** What the answer says: the title, else the description, else the picture's URL. */
  value: string
}

const PictureCard = memo(function PictureCardView({
  picture,
  multiple,
  checked,
  disabled,
  onChoose,
  buttonRef,
}: {
  picture: Picture
  multiple: boolean
  checked: boolean
  disabled: boolean
  onChoose: (id: string) => void
  buttonRef?: React.Ref<HTMLButtonElement>
}) {
  return (
    <button
      ref={buttonRef}
      type="button"
      role={multiple ? 'checkbox' : undefined}
      aria-checked={multiple ? checked : undefined}
      aria-label={picture.title ? undefined : picture.value}
      disabled={disabled}
      onClick={() => onChoose(picture.id)}
      className={cn(
        'fc-host-bubble relative flex w-[calc(50%-0.25rem)] flex-col overflow-hidden text-start transition-transform disabled:cursor-not-allowed disabled:opacity-60 sm:w-44',
        !disabled && 'motion-safe:hover:scale-[1.02]',
        checked && 'ring-2 ring-(--fc-button-bg)'
      )}
    >
      {picture.src && (
        <img
          src={picture.src}
          alt=""
          loading="lazy"
          className="aspect-square w-full object-cover"
        />
      )}
      {(picture.title || picture.description) && (
        <span className="grid gap-0.5 p-2">
          {picture.title && <span className="text-sm font-semibold">{picture.title}</span>}
          {picture.description && <span className="text-xs opacity-80">{picture.description}</span>}
        </span>
      )}
      {multiple && (
        <span
          aria-hidden
          className={cn(
            'absolute top-2 right-2 flex size-5 items-center justify-center rounded-sm border-2 border-white shadow',
            checked ? 'fc-button' : 'bg-black/20'
          )}
        >
          {checked && <Check className="size-3.5" />}
        </span>
      )}
    </button>
  )
})

export default function PictureChoiceInput({ input, disabled, onSubmit }: ChatInputProps) {
  const { t } = useTranslation()
  const options = input.options
  const multiple = optionFlag(options, 'isMultipleChoice') === true
  const searchable = optionFlag(options, 'isSearchable') === true
  const pictures = useMemo<Picture[]>(
    () =>
      (input.items ?? []).map((item) => {
        const title = typeof item.title === 'string' && item.title ? item.title : undefined
        const description =
          typeof item.description === 'string' && item.description ? item.description : undefined
        const src = safeUrl(item.pictureSrc)
        return { id: item.id, src, title, description, value: title ?? description ?? src ?? '' }
      }),
    [input.items]
  )
  const [query, setQuery] = useState('')
  const searchRef = useAutoFocus<HTMLInputElement>(true)
  const firstRef = useAutoFocus<HTMLButtonElement>()

  const visible = useMemo(() => {
    const needle = normalizeSearch(query)
    if (!needle) return pictures
    return pictures.filter((picture) =>
      normalizeSearch(`${picture.title ?? ''} ${picture.description ?? ''}`).includes(needle)
    )
  }, [pictures, query])

  const { selected, choose, submitSelection } = useChoiceSelection({
    entries: pictures,
    valueOf: (picture) => picture.value || undefined,
    multiple,
    disabled,
    onSubmit,
  })

  return (
    <InputRow wide>
      <div className="flex w-full flex-col items-end gap-2" data-input-type={input.type}>
        {searchable && (
          <div className="w-full sm:max-w-md">
            <FilterBox
              inputRef={searchRef}
              value={query}
              onChange={setQuery}
              disabled={disabled}
              placeholder={
                optionText(options, 'searchInputPlaceholder') ?? t('viewer.choice.filter')
              }
            />
          </div>
        )}
        <div
          role="group"
          aria-label={t('viewer.choice.options')}
          className="flex w-full flex-wrap justify-end gap-2 p-0.5"
        >
          {visible.map((picture, index) => (
            <PictureCard
              key={picture.id}
              picture={picture}
              multiple={multiple}
              checked={selected.has(picture.id)}
              disabled={disabled}
              onChoose={choose}
              buttonRef={!searchable && index === 0 ? firstRef : undefined}
            />
          ))}
          {visible.length === 0 && (
            <p className="px-2 py-1 text-sm opacity-70">{t('viewer.choice.noMatch')}</p>
          )}
        </div>
        {multiple && (
          <SendButton
            type="button"
            onClick={submitSelection}
            label={optionText(options, 'buttonLabel')}
            disabled={selected.size === 0}
            sending={disabled}
          />
        )}
      </div>
    </InputRow>
  )
}
