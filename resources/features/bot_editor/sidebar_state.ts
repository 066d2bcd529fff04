import { create } from 'zustand'

const LOCK_KEY = 'flowcraft.editor.sidebarLocked'

function readLocked() {
  try {
    return localStorage.getItem(LOCK_KEY) !== 'false'
  } catch {
    return true
  }
}

interface SidebarState {
  /** Pinned open (the builder's choice, remembered); otherwise folded to a rail. */
  locked: boolean
  setLocked(locked: boolean): void
}

/**
 * The blocks sidebar's pin, shared with the canvas: the zoom controls and the fitted view
 * keep clear of whatever width the sidebar takes.
 */
export const useSidebarState = create<SidebarState>((set) => ({
  locked: typeof window === 'undefined' ? true : readLocked(),
  setLocked: (locked) => {
    set({ locked })
    try {
      localStorage.setItem(LOCK_KEY, String(locked))
    } catch {}
  },
}))

/* The sidebar's box (group_node.tsx / blocks_sidebar.tsx): left-3 plus w-72 or w-12. */
const SIDEBAR_OFFSET = 12
const SIDEBAR_OPEN_WIDTH = 288
const SIDEBAR_RAIL_WIDTH = 48

/** How far from the canvas' left edge the sidebar reaches (0 when there is none). */
export function sidebarInset(shown: boolean, pinned: boolean) {
  if (!shown) return 0
  return SIDEBAR_OFFSET + (pinned ? SIDEBAR_OPEN_WIDTH : SIDEBAR_RAIL_WIDTH)
}
