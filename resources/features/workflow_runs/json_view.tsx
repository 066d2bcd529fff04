import { useMemo } from 'react'
import { cn } from '~/lib/utils'

/** Shown text is capped: a huge output must not freeze the page (the API has it all). */
const MAX_CHARS = 20_000

/** A read-only, pretty-printed JSON value. */
export function JsonView({
  value,
  className,
  testId,
}: {
  value: unknown
  className?: string
  testId?: string
}) {
  const text = useMemo(() => {
    let json: string
    try {
      json = JSON.stringify(value === undefined ? null : value, null, 2) ?? 'null'
    } catch {
      json = String(value)
    }
    return json.length > MAX_CHARS ? `${json.slice(0, MAX_CHARS)}\n…` : json
  }, [value])
  return (
    <pre
      data-testid={testId}
      tabIndex={0}
      className={cn(
        'max-h-72 overflow-auto rounded-md bg-muted p-2 font-mono text-xs whitespace-pre-wrap break-all',
        'focus-visible:ring-2 focus-visible:ring-ring/50 focus-visible:outline-none',
        className
      )}
    >
      {text}
    </pre>
  )
}
