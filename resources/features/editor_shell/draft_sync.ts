import { push, type History, type HistoryOptions } from '#shared/bot/history'
import { HttpError, errorDescription, jsonFetch } from '~/lib/http'
import { showToast } from '~/lib/toast'
import { createSaveQueue, fitsKeepalive, type SaveOptions } from './save_queue'

/**
 * How both editors keep their draft in step with the server (docs/workflows.md "Autosave",
 * docs/editor.md "Saving from two places"): one save at a time, each carrying the draft
 * revision the editor holds. When another tab, the copilot or a restore wrote in between,
 * the server answers 409: the editor keeps the builder's draft, stops saving and asks
 * (reload theirs, or keep mine) instead of letting either side vanish.
 */

/** The part of an editor store this module reads and writes. */
export interface DraftSyncState<D> {
  readOnly: boolean
  history: History<D>
  saving: boolean
  /** The draft revision the server holds, as last heard (sent with each save). */
  revision: number
  /** A save was refused because the draft changed elsewhere: saving waits for the builder. */
  conflict: boolean
}

export interface DraftSyncConfig<S extends DraftSyncState<D>, D, R> {
  get: () => S
  set: (partial: Partial<S>) => void
  /** The document the server holds (`present === saved(state)` means nothing to send). */
  saved: (state: S) => D
  /** The store's fields for "this document is what the server holds". */
  markSaved: (doc: D, response: R | null) => Partial<S>
  /** The server runs the same checks: refusing here keeps a broken draft off the wire. */
  validate: (doc: D) => { ok: true } | { ok: false; errors: { path: string; message: string }[] }
  url: (state: S) => string
  bodyOf: (doc: D) => Record<string, unknown>
  revisionOf: (response: R) => number | undefined
  /** The toast title of a failed save. */
  errorTitle: () => string
  /**
   * "Reload" fetches what the server holds (GET on `url`) and puts it in place: `apply` takes
   * the answer, `fetchErrorTitle` titles the toast when the fetch fails ("Could not fetch
   * bot", "Could not fetch workflow").
   */
  apply: (response: R) => void
  fetchErrorTitle: () => string
  /** Cleared when a failed save returns the editor to the saved document. */
  onRevert: () => Partial<S>
  historyOptions?: HistoryOptions<D>
}

export interface DraftSync {
  /** Sends the draft if it changed since the last save. Resolves false on failure. */
  save: (options?: SaveOptions) => Promise<boolean>
  /**
   * The page is going away: sends the unsaved draft as a keepalive request. False when it
   * cannot go that way (too large, invalid, or changed elsewhere): the page should ask.
   */
  saveOnLeave: () => boolean
  /** "Keep mine": saves the draft over what was written elsewhere. */
  keepMine: () => Promise<boolean>
  /**
   * "Reload": gives the draft up for what the server holds, fetched in place (the undo
   * history keeps the builder's version one step back). Resolves false when the fetch failed
   * (toast, the choice stays open); a document gone meanwhile (404) reloads the page, which
   * then says it is not found.
   */
  reloadTheirs: () => Promise<boolean>
}

export function createDraftSync<S extends DraftSyncState<D>, D, R>(
  config: DraftSyncConfig<S, D, R>
): DraftSync {
  const { get, set } = config

  async function send(options: SaveOptions = {}): Promise<boolean> {
    const state = get()
    const doc = state.history.present
    if (state.readOnly || doc === config.saved(state)) return true
    if (state.conflict && !options.overwrite) return false
    const checked = config.validate(doc)
    if (!checked.ok) {
      const first = 'errors' in checked ? checked.errors[0] : undefined
      showToast('error', config.errorTitle(), first ? `${first.path}: ${first.message}` : undefined)
      return false
    }
    // A keepalive save may leave while another is in flight: that one will have raised the
    // revision by one when this one arrives.
    const revision = options.keepalive && state.saving ? state.revision + 1 : state.revision
    const body = config.bodyOf(doc)
    set({ saving: true } as Partial<S>)
    try {
      const response = await jsonFetch<R>(config.url(state), {
        method: 'PATCH',
        body: options.overwrite ? body : { ...body, revision },
        keepalive: options.keepalive && fitsKeepalive(body),
      })
      const next = response ? config.revisionOf(response) : undefined
      set({
        ...config.markSaved(doc, response ?? null),
        saving: false,
        conflict: false,
        ...(next !== undefined ? { revision: next } : {}),
      } as Partial<S>)
      return true
    } catch (error) {
      if (error instanceof HttpError && error.status === 409) {
        // Nothing is reverted: the builder chooses between the two versions.
        set({ saving: false, conflict: true } as Partial<S>)
        return false
      }
      // A failed save reverts to the last saved state (undo brings the edits back).
      const current = get()
      set({
        saving: false,
        history: push(current.history, config.saved(current), config.historyOptions),
        ...config.onRevert(),
      } as Partial<S>)
      showToast('error', config.errorTitle(), errorDescription(error))
      return false
    }
  }

  const queue = createSaveQueue(send)

  return {
    save: queue,
    saveOnLeave() {
      const state = get()
      const doc = state.history.present
      if (state.readOnly || doc === config.saved(state)) return true
      if (state.conflict) return false
      if (!config.validate(doc).ok || !fitsKeepalive(config.bodyOf(doc))) return false
      void queue({ keepalive: true })
      return true
    },
    keepMine() {
      return queue({ overwrite: true })
    },
    async reloadTheirs() {
      try {
        config.apply(await jsonFetch<R>(config.url(get())))
        set({ conflict: false } as Partial<S>)
        return true
      } catch (error) {
        if (error instanceof HttpError && error.status === 404) {
          set({ ...config.markSaved(get().history.present, null), conflict: false } as Partial<S>)
          window.location.reload()
          return false
        }
        showToast('error', config.fetchErrorTitle(), errorDescription(error))
        return false
      }
    },
  }
}
