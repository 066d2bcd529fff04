import { memo } from 'react'
import type { ResultColumnDto } from '#shared/results/types'
import { formatDateTime } from '~/lib/format'
import i18n from 'i18next'

const URL_PATTERN = /^https?:\/\/\S+$/
/** Links to private files carry a signature (docs/security.md, "Storage"): shown without it. */
const SIGNATURE = /\?signature=[^\s]*$/

function languageName(tag: string) {
  try {
    return new Intl.DisplayNames([i18n.language || 'en'], { type: 'language' }).of(tag) ?? tag
  } catch {
    return tag
  }
}

/** One cell: dates in the interface language, file and link answers as links. */
export const ResultCell = memo(function ResultCellView({
  column,
  value,
}: {
  column: ResultColumnDto
  value: string
}) {
  if (column.kind === 'submittedAt') {
    return <span className="truncate tabular-nums">{formatDateTime(value)}</span>
  }
  if (column.kind === 'language') {
    // The tag ('fr') as the chat recorded it, named in the interface language.
    return (
      <span className="truncate" title={value || undefined} data-testid="result-language">
        {value ? `${languageName(value)} (${value})` : ''}
      </span>
    )
  }
  const parts = value ? value.split(', ') : []
  if (parts.length > 0 && parts.every((part) => URL_PATTERN.test(part))) {
    return (
      <span className="truncate" title={value.replace(/\?signature=[^\s,]*/g, '')}>
        {parts.map((url, index) => (
          <span key={url}>
            {index > 0 && ', '}
            <a
              href={url}
              target="_blank"
              rel="noreferrer noopener"
              className="text-primary underline-offset-2 hover:underline"
              onClick={(event) => event.stopPropagation()}
            >
              {url.replace(SIGNATURE, '')}
            </a>
          </span>
        ))}
      </span>
    )
  }
  return (
    <span className="truncate" title={value || undefined}>
      {value}
    </span>
  )
})
