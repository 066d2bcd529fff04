import * as Y from 'yjs'
import { decodeBase64, draftRoot } from '#shared/coedit/mirror'

/** The copilot's changes kept undoable (by the panel's Undo), the latest ones only. */
const KEPT = 10

/**
 * The copilot's changes in one editor's shared draft (docs/editor.md "The copilot in a shared
 * draft"). Each arrives as one Yjs update, on the channel (marked as the copilot's) and, for
 * the person who asked, in the reply too; it is applied once with an origin of its own,
 * which an UndoManager of its own tracks: the person's Ctrl+Z (LOCAL changes only) never
 * takes it back, and the copilot panel's Undo reverts exactly it, even after others edited
 * around it. The origins are not sent back to the server (the server already has them).
 */
export function createCopilotChanges(options: {
  doc: Y.Doc
  /** Joined the shared draft and not stopped. */
  ready: () => boolean
  readOnly: () => boolean
}) {
  const root = draftRoot(options.doc)
  /** By update (base64): the UndoManager tracking it. */
  const changes = new Map<string, Y.UndoManager>()
  const origins = new Set<unknown>()

  function apply(update: string) {
    if (!options.ready()) return false
    // Heard on the channel and brought by the reply: applied (and tracked) once.
    if (changes.has(update)) return true
    const origin = { copilot: true }
    origins.add(origin)
    const manager = new Y.UndoManager(root, {
      trackedOrigins: new Set([origin]),
      captureTimeout: 0,
    })
    changes.set(update, manager)
    Y.applyUpdate(options.doc, decodeBase64(update), origin)
    for (const [key, old] of changes) {
      if (changes.size <= KEPT) break
      old.destroy()
      changes.delete(key)
    }
    return true
  }

  /** Its undo's origin is the manager: sent as an edit of the person who clicked. */
  function undo(update: string) {
    const manager = changes.get(update)
    if (!manager || manager.undoStack.length === 0 || options.readOnly()) return false
    manager.undo()
    return true
  }

  return {
    origins,
    apply,
    undo,
    destroy() {
      for (const manager of changes.values()) manager.destroy()
      changes.clear()
    },
  }
}
