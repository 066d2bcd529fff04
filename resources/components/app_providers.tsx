import type { ReactNode } from 'react'
import { TooltipProvider } from '~/components/ui/tooltip'
import { Toaster } from '~/components/ui/sonner'
import { useApplyColorMode } from '~/hooks/use_color_mode'

/**
 * Wraps the Inertia app: tooltips, colour mode and the toaster. Page-dependent effects
 * (the user's saved appearance and language, flashed toasts) run in <PageEffects/>, which
 * every layout renders, because they need the page props.
 */
export function AppProviders({ children }: { children: ReactNode }) {
  useApplyColorMode()
  return (
    <TooltipProvider>
      {children}
      <Toaster />
    </TooltipProvider>
  )
}
