import type { ReactNode } from 'react'
import { cn } from '~/lib/utils'
import { PageEffects } from '~/components/page_effects'
import { Logo } from '~/components/logo'

/** Pages without the app shell (sign-in, dev mailbox, error pages, suspended workspace). */
export function BareLayout({
  children,
  className,
  center = true,
}: {
  children: ReactNode
  className?: string
  center?: boolean
}) {
  return (
    <div className="flex min-h-dvh flex-col bg-muted/40">
      <PageEffects />
      <header className="flex h-14 items-center px-6">
        <Logo />
      </header>
      <main
        id="main"
        className={cn(
          'flex flex-1 flex-col px-4 pb-12',
          center && 'items-center justify-center',
          className
        )}
      >
        {children}
      </main>
    </div>
  )
}
