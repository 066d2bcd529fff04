import type { ReactNode } from 'react'
import { cn } from '~/lib/utils'

/** A titled block inside a settings tab. */
export function SettingsSection({
  title,
  description,
  children,
  className,
  tone = 'default',
  testId,
}: {
  title: string
  description?: ReactNode
  children: ReactNode
  className?: string
  tone?: 'default' | 'danger'
  testId?: string
}) {
  return (
    <section
      data-testid={testId}
      className={cn(
        'grid gap-4 rounded-lg border p-4',
        tone === 'danger' && 'border-destructive/40',
        className
      )}
    >
      <div className="grid gap-1">
        <h3 className={cn('text-sm font-semibold', tone === 'danger' && 'text-destructive')}>
          {title}
        </h3>
        {description && <p className="text-sm text-muted-foreground">{description}</p>}
      </div>
      {children}
    </section>
  )
}
