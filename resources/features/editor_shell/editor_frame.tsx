import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { EyeIcon, TriangleAlertIcon } from 'lucide-react'
import type { StoreApi } from 'zustand'
import { useStore } from 'zustand'
import { Button } from '~/components/ui/button'
import { useStoreAutosave } from '~/lib/use_autosave'
import type { DraftSyncState } from './draft_sync'

/**
 * The frame both editors share around their canvas: autosave of the draft, the keyboard's
 * undo and redo, the body scroll lock, the read-only banner and the notice of a draft
 * changed elsewhere (docs/editor.md "Saving from two places").
 */

/** What the frame needs of an editor store. */
export interface EditorFrameState<D> extends DraftSyncState<D> {
  save: () => Promise<boolean>
  saveOnLeave: () => boolean
  keepMine: () => Promise<boolean>
  reloadTheirs: () => Promise<boolean>
  undo: () => void
  redo: () => void
}

export function isTyping(target: EventTarget | null) {
  const element = target as HTMLElement | null
  if (!element) return false
  return (
    element.isContentEditable ||
    ['INPUT', 'TEXTAREA', 'SELECT'].includes(element.tagName) ||
    element.getAttribute('role') === 'textbox'
  )
}

/** Autosave of an editor's draft: the shared hook of resources/lib/use_autosave.ts. */
export function useDraftAutosave<S extends EditorFrameState<D>, D>(
  store: StoreApi<S>,
  saved: (state: S) => D
) {
  useStoreAutosave(store, {
    readOnly: (state) => state.readOnly,
    draft: (state) => state.history.present,
    isSaved: (state) => state.history.present === saved(state),
    save: (state) => state.save(),
    saveOnLeave: (state) => state.saveOnLeave(),
    conflict: (state) => state.conflict,
  })
}

/**
 * Ctrl/Cmd+Z, Ctrl/Cmd+Shift+Z or Ctrl+Y, and the editor's own shortcuts (`onKey` answers
 * whether it took the key). Not while typing, nor while a dialog owns the keyboard.
 */
export function useEditorShortcuts<S extends EditorFrameState<unknown>>(
  store: StoreApi<S>,
  enabled: boolean,
  onKey?: (key: string, event: KeyboardEvent, state: S) => void
) {
  useEffect(() => {
    if (!enabled) return
    const onKeyDown = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || isTyping(event.target)) return
      if (document.querySelector('[role="dialog"], [role="alertdialog"]')) return
      const key = event.key.toLowerCase()
      const state = store.getState()
      if (key === 'z' && !event.shiftKey) {
        event.preventDefault()
        state.undo()
      } else if ((key === 'z' && event.shiftKey) || key === 'y') {
        event.preventDefault()
        state.redo()
      } else {
        onKey?.(key, event, state)
      }
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [store, enabled, onKey])
}

/** An editor page owns the viewport: the body does not scroll under the canvas. */
export function useBodyScrollLock() {
  useEffect(() => {
    document.body.classList.add('no-scroll')
    return () => document.body.classList.remove('no-scroll')
  }, [])
}

export function ReadOnlyBanner({ message }: { message: string }) {
  return (
    <div
      data-testid="readonly-banner"
      role="status"
      className="flex items-center justify-center gap-2 border-b bg-muted px-3 py-1.5 text-sm text-muted-foreground"
    >
      <EyeIcon className="size-4" aria-hidden />
      {message}
    </div>
  )
}

/**
 * A save was refused because the draft changed elsewhere: the builder's edits stay on the
 * canvas, unsaved, until they pick a side.
 */
export function ConflictNotice<S extends EditorFrameState<unknown>>({
  store,
}: {
  store: StoreApi<S>
}) {
  const { t } = useTranslation()
  const conflict = useStore(store, (state) => state.conflict)
  const saving = useStore(store, (state) => state.saving)
  if (!conflict) return null
  return (
    <div
      role="alert"
      data-testid="conflict-notice"
      className="flex flex-wrap items-center justify-center gap-x-3 gap-y-1.5 border-b border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
    >
      <TriangleAlertIcon className="size-4 shrink-0" aria-hidden />
      <p className="min-w-0">
        <strong className="font-medium">{t('editorShell.conflict.title')}</strong>{' '}
        {t('editorShell.conflict.description')}
      </p>
      <div className="flex gap-2">
        <Button
          size="sm"
          variant="outline"
          data-testid="conflict-reload"
          onClick={() => void store.getState().reloadTheirs()}
        >
          {t('editorShell.conflict.reload')}
        </Button>
        <Button
          size="sm"
          data-testid="conflict-keep"
          disabled={saving}
          onClick={() => void store.getState().keepMine()}
        >
          {t('editorShell.conflict.keepMine')}
        </Button>
      </div>
    </div>
  )
}
