import * as React from 'react'
import { Label as LabelPrimitive } from 'radix-ui'
import { useTranslation } from 'react-i18next'
import { cn } from '~/lib/utils'
import { translateServerMessage } from '~/lib/i18n_core'

export function Label({ className, ...props }: React.ComponentProps<typeof LabelPrimitive.Root>) {
  return (
    <LabelPrimitive.Root
      data-slot="label"
      className={cn(
        'flex items-center gap-2 text-sm leading-none font-medium select-none group-data-[disabled=true]:pointer-events-none group-data-[disabled=true]:opacity-50 peer-disabled:cursor-not-allowed peer-disabled:opacity-50',
        className
      )}
      {...props}
    />
  )
}

/**
 * A field's error message, placed under the field (aria-live so screen readers hear it).
 * A text message may come from the server's `errors` in English (AppError): it is shown
 * in the user's language; text that is no server message (VineJS messages, already
 * localised by the server, and the page's own messages) is shown as it is.
 */
export function FieldError({
  id,
  children,
  className,
}: {
  id?: string
  children?: React.ReactNode
  className?: string
}) {
  // Subscribes to language changes, so that the message follows the chosen language.
  useTranslation()
  if (!children) return null
  const message = typeof children === 'string' ? translateServerMessage(children) : children
  return (
    <p
      id={id}
      role="alert"
      aria-live="polite"
      className={cn('text-sm text-destructive', className)}
    >
      {message}
    </p>
  )
}

export function FieldHint({
  id,
  children,
  className,
}: {
  id?: string
  children?: React.ReactNode
  className?: string
}) {
  if (!children) return null
  return (
    <p id={id} className={cn('text-xs text-muted-foreground', className)}>
      {children}
    </p>
  )
}
