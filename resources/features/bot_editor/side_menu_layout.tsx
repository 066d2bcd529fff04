import type { ComponentType, ReactNode } from 'react'
import { cn } from '~/lib/utils'

export interface SideMenuEntry<T extends string> {
  id: T
  label: string
  icon: ComponentType<{ className?: string }>
}

/**
 * The Theme and Settings tabs: a side menu of sections, the chosen section's fields, and an
 * optional aside (the Theme tab's live preview).
 */
export function SideMenuLayout<T extends string>({
  label,
  entries,
  current,
  onSelect,
  testId,
  aside,
  children,
}: {
  label: string
  entries: readonly SideMenuEntry<T>[]
  current: T
  onSelect: (id: T) => void
  testId: string
  aside?: ReactNode
  children: ReactNode
}) {
  return (
    <div className="flex h-full min-h-0" data-testid={testId}>
      <nav aria-label={label} className="w-52 shrink-0 overflow-y-auto border-r bg-muted/30 p-3">
        <ul className="grid gap-1">
          {entries.map(({ id, label: entryLabel, icon: Icon }) => (
            <li key={id}>
              <button
                type="button"
                data-testid={`${testId}-menu-${id}`}
                aria-current={current === id ? 'page' : undefined}
                onClick={() => onSelect(id)}
                className={cn(
                  'flex w-full items-center gap-2 rounded-md px-3 py-2 text-left text-sm font-medium outline-none hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring/50',
                  current === id
                    ? 'bg-background text-foreground shadow-xs'
                    : 'text-muted-foreground'
                )}
              >
                <Icon className="size-4 shrink-0" />
                {entryLabel}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <div className="min-w-0 flex-1 overflow-y-auto">
        <div className="mx-auto grid max-w-2xl gap-6 p-6">{children}</div>
      </div>
      {aside && (
        <aside className="hidden w-[22rem] shrink-0 overflow-y-auto border-l bg-muted/30 p-4 lg:block">
          {aside}
        </aside>
      )}
    </div>
  )
}
