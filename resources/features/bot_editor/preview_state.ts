import { create } from 'zustand'
import type { PreviewStartChatRequest } from '#shared/chat/types'

type StartFrom = PreviewStartChatRequest['startFrom']

interface PreviewState {
  open: boolean
  startFrom?: StartFrom
  /** Changes on every open, so opening again restarts the preview. */
  runKey: number
  openPreview(startFrom?: StartFrom): void
  closePreview(): void
}

/** Whether the editor's preview panel is open, and where it starts (the start or a group). */
export const usePreviewState = create<PreviewState>((set) => ({
  open: false,
  runKey: 0,
  openPreview: (startFrom) => set((state) => ({ open: true, startFrom, runKey: state.runKey + 1 })),
  closePreview: () => set({ open: false }),
}))
