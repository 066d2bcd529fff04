import { lazy, Suspense } from 'react'
import { useTranslation } from 'react-i18next'
import { PlayIcon } from 'lucide-react'
import { Button } from '~/components/ui/button'
import { useBotEditorApi } from './bot_editor_store'
import { usePreviewState } from './preview_state'

/**
 * The Preview button of the editor header. The draft is saved first, so the preview runs
 * what the builder sees.
 */
export function PreviewButton() {
  const { t } = useTranslation()
  const api = useBotEditorApi()
  const openPreview = usePreviewState((state) => state.openPreview)
  return (
    <Button
      variant="outline"
      size="sm"
      data-testid="preview-button"
      data-tour="editor-preview"
      onClick={async () => {
        await api.getState().save()
        openPreview()
      }}
    >
      <PlayIcon className="size-4" aria-hidden /> {t('editorPreview.preview')}
    </Button>
  )
}

// The chat view is loaded on the first preview, not with the editor (DESIGN section 6).
const PreviewPanel = lazy(() =>
  import('~/features/viewer/preview_panel').then((m) => ({ default: m.PreviewPanel }))
)

/** The preview drawer over the right of the canvas (start or a group, live logs). */
export function EditorPreview({ botId }: { botId: string }) {
  const { open, startFrom, runKey, closePreview } = usePreviewState()
  if (!open) return null
  return (
    <aside className="absolute inset-y-0 right-0 z-20 flex w-full max-w-[420px] flex-col border-l bg-background shadow-xl">
      <Suspense fallback={null}>
        <PreviewPanel key={runKey} botId={botId} startFrom={startFrom} onClose={closePreview} />
      </Suspense>
    </aside>
  )
}
