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
  type Item,
  optionFlag,
  optionText,
  SendButton,
  useAutoFocus,
} from '#sdk/viewer'

function itemText(item: Item) {
  const content = item.content
  if (typeof content === 'string') return content
  if (typeof content === 'number') return String(content)
  return ''
}

const ChoiceButton = memo(function ChoiceButtonView({
  id,
  text,
  multiple,
  checked,
  disabled,
  onChoose,
  buttonRef,
}: {
  id: string
  text: string
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
      disabled={disabled}
      onClick={() => onChoose(id)}
      className={cn(
        'inline-flex min-h-10 max-w-full items-center gap-2 px-4 py-2 text-start text-[15px] leading-snug break-words disabled:cursor-not-allowed disabled:opacity-60',
        multiple ? 'fc-button-outline' : 'fc-button'
      )}
    >
      {multiple && (
        <span
          aria-hidden
          className="flex size-4 shrink-0 items-center justify-center rounded-sm border border-current"
        >
          {checked && <Check className="size-3" />}
        </span>
      )}
      {text}
    </button>
  )
})

export default function ChoiceInput({ input, disabled, onSubmit }: ChatInputProps) {
  const { t } = useTranslation()
  const options = input.options
  const multiple = optionFlag(options, 'isMultipleChoice') === true
  const searchable = optionFlag(options, 'isSearchable') === true
  const items = useMemo(
    () => (input.items ?? []).map((item) => ({ id: item.id, text: itemText(item) })),
    [input.items]
  )
  const [query, setQuery] = useState('')
  const searchRef = useAutoFocus<HTMLInputElement>(true)
  const firstButtonRef = useAutoFocus<HTMLButtonElement>()

  const visible = useMemo(() => {
    const needle = normalizeSearch(query)
    return needle ? items.filter((item) => normalizeSearch(item.text).includes(needle)) : items
  }, [items, query])

  const { selected, choose, submitSelection } = useChoiceSelection({
    entries: items,
    valueOf: (item) => item.text,
    multiple,
    disabled,
    onSubmit,
    initial: () => {
      const prefilled = input.prefilledValue?.split(', ') ?? []
      return new Set(items.filter((item) => prefilled.includes(item.text)).map((item) => item.id))
    },
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
          className="flex max-h-[50vh] w-full flex-wrap justify-end gap-2 overflow-y-auto p-0.5"
        >
          {visible.map((item, index) => (
            <ChoiceButton
              key={item.id}
              id={item.id}
              text={item.text}
              multiple={multiple}
              checked={selected.has(item.id)}
              disabled={disabled}
              onChoose={choose}
              buttonRef={!searchable && index === 0 ? firstButtonRef : undefined}
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
