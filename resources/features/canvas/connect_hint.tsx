import { useEffect } from 'react'
import { useStore, useStoreApi } from '@xyflow/react'
import { useTranslation } from 'react-i18next'

/**
 * While a click-to-connect waits for its second click (React Flow's connectOnClick): what
 * to do next, and Escape or Cancel to give up. The gesture that needs no drag, made visible.
 */
export function ConnectHint({ message }: { message: string }) {
  const { t } = useTranslation()
  const flow = useStoreApi()
  const pending = useStore((state) => state.connectionClickStartHandle !== null)
  useEffect(() => {
    if (!pending) return
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') flow.setState({ connectionClickStartHandle: null })
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [pending, flow])
  if (!pending) return null
  return (
    <div className="pointer-events-none absolute top-12 left-1/2 z-20 w-max max-w-[calc(100%-1.5rem)] -translate-x-1/2">
      <p
        role="status"
        data-testid="connect-hint"
        className="pointer-events-auto flex items-center gap-2 rounded-full border bg-background px-3 py-1.5 text-xs shadow-md"
      >
        {message}
        <button
          type="button"
          data-testid="connect-cancel"
          className="rounded-full px-1.5 font-medium text-primary outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring/50"
          onClick={() => flow.setState({ connectionClickStartHandle: null })}
        >
          {t('editorCanvas.connect.cancel')}
        </button>
      </p>
    </div>
  )
}

/** A source handle waiting for the click that ends a click-to-connect (React Flow's class). */
export const CLICK_CONNECTING_CLASS =
  '[&.clickconnecting]:!size-4 [&.clickconnecting]:ring-4 [&.clickconnecting]:ring-primary/40 [&.clickconnecting]:animate-pulse'
