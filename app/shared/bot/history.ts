/**
 * Undo/redo for an editor: past, present and future. Immutable like
 * the editing operations, so a zustand store just replaces its history on each change.
 */
import { isEmptyGroupPresent } from './editing.js'
import type { BotV6 } from './types.js'

export interface History<T = BotV6> {
  past: T[]
  present: T
  future: T[]
}

/** Past states kept; the oldest are forgotten beyond it. */
export const HISTORY_LIMIT = 100

export interface HistoryOptions<T> {
  limit?: number
  /**
   * States undo passes over when an older one exists: by default bots holding an empty
   * group (what a drag leaves behind for a moment).
   */
  isTransient?: (state: T) => boolean
}

function defaultTransient(state: unknown): boolean {
  const groups = (state as { groups?: unknown } | null)?.groups
  return Array.isArray(groups) && isEmptyGroupPresent(state as BotV6)
}

export function createHistory<T = BotV6>(present: T): History<T> {
  return { past: [], present, future: [] }
}

/** Records a change: the present goes to the past and redo is cleared: a new edit starts a new line of history. */
export function push<T>(history: History<T>, next: T, options: HistoryOptions<T> = {}): History<T> {
  if (next === history.present) return history
  const limit = Math.max(1, options.limit ?? HISTORY_LIMIT)
  const past = [...history.past, history.present]
  return { past: past.slice(Math.max(0, past.length - limit)), present: next, future: [] }
}

/**
 * Goes back one state, passing over transient states (bots with an empty group) when a
 * later-in-the-past one is not transient. Passed-over states are dropped: redo returns
 * straight to the present undo left.
 */
export function undo<T>(history: History<T>, options: HistoryOptions<T> = {}): History<T> {
  const { past } = history
  if (past.length === 0) return history
  const isTransient = options.isTransient ?? defaultTransient
  let index = past.length - 1
  while (index > 0 && isTransient(past[index])) index--
  // "When possible": if every older state is transient, take the latest one.
  if (isTransient(past[index])) index = past.length - 1
  return {
    past: past.slice(0, index),
    present: past[index],
    future: [history.present, ...history.future],
  }
}

export function redo<T>(history: History<T>): History<T> {
  if (history.future.length === 0) return history
  const [next, ...future] = history.future
  return { past: [...history.past, history.present], present: next, future }
}

export const canUndo = (history: History<unknown>) => history.past.length > 0
export const canRedo = (history: History<unknown>) => history.future.length > 0
