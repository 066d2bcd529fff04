import { useEffect, useId, useRef, useState, type ReactNode } from 'react'
import { router } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { MenuIcon, XIcon } from 'lucide-react'
import { Button } from '~/components/ui/button'
import { cn } from '~/lib/utils'

/* Layers of Radix opened from inside the menu (share popover, publish menu, dialogs). */
const LAYERS = '[data-radix-popper-content-wrapper], [role="dialog"], [role="alertdialog"]'

/**
 * An editor header's actions: in the header from the `md` breakpoint up, and behind a menu
 * button on a phone, where they open as a panel under the header. The actions are the same
 * elements either way (`md:contents` on desktop), so their popovers and state stay put.
 * The header must be `relative`.
 */
export function HeaderMenu({ children, className }: { children: ReactNode; className?: string }) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  const panelId = useId()
  const panel = useRef<HTMLDivElement>(null)
  const button = useRef<HTMLButtonElement>(null)

  useEffect(() => router.on('navigate', () => setOpen(false)), [])
  useEffect(() => {
    if (!open) return
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Element | null
      if (!target || panel.current?.contains(target) || button.current?.contains(target)) return
      if (target.closest(LAYERS)) return
      setOpen(false)
    }
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || document.querySelector(LAYERS)) return
      setOpen(false)
      button.current?.focus()
    }
    document.addEventListener('pointerdown', onPointerDown)
    document.addEventListener('keydown', onKeyDown)
    return () => {
      document.removeEventListener('pointerdown', onPointerDown)
      document.removeEventListener('keydown', onKeyDown)
    }
  }, [open])

  const label = open ? t('editorCanvas.header.close') : t('editorCanvas.header.open')
  return (
    <>
      <Button
        ref={button}
        variant="ghost"
        size="icon"
        className="ml-auto size-8 shrink-0 md:hidden"
        data-testid="header-menu"
        aria-label={label}
        title={label}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
      >
        {open ? <XIcon /> : <MenuIcon />}
      </Button>
      <div
        ref={panel}
        id={panelId}
        data-testid="header-actions"
        data-open={open || undefined}
        className={cn(
          'md:contents',
          open
            ? 'absolute inset-x-2 top-full z-40 mt-1 flex flex-col items-stretch gap-3 rounded-xl border bg-background p-3 shadow-lg'
            : 'hidden',
          className
        )}
      >
        {children}
      </div>
    </>
  )
}
