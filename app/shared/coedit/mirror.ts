import * as Y from 'yjs'
import { jsonEqual } from '#shared/json_equal'

/**
 * A draft (a bot's or a workflow's content, plain JSON) mirrored into a Yjs map and back
 * (docs/editor.md "Editing together"). The browser and the server write through the same
 * functions, so a change made by either one becomes the smallest Yjs change: a key set, a
 * block inserted, a few characters of a text. Yjs then merges what several people did at
 * once, character by character in texts.
 *
 * How JSON becomes Yjs:
 * - objects are Y.Maps and arrays Y.Arrays (arrays of objects with an `id` are diffed by id,
 *   other arrays by position);
 * - strings are Y.Texts, so two people typing in one field keep both their characters,
 *   except identifiers and names of kinds (`id`, `type`, `…Id`, operators), which one
 *   person's choice replaces as a whole, and strings inside arrays (lists of values).
 */

/** The root map of a shared draft inside its Y.Doc. */
export const DRAFT_ROOT = 'draft'

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json | undefined }

const ATOMIC_KEYS = new Set([
  'id',
  'type',
  'version',
  'path',
  'comparisonOperator',
  'logicalOperator',
  'operator',
  'method',
  'mode',
  'storage',
  'kind',
  'icon',
])

/** Whether a string under this key merges character by character (a Y.Text). */
function isTextKey(key: string | null) {
  if (key === null || ATOMIC_KEYS.has(key)) return false
  return !/Ids?$/.test(key)
}

function isPlainObject(value: unknown): value is Record<string, Json | undefined> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The Yjs value of a JSON value; `key` is its key in its object, null inside arrays. */
export function toY(value: Json | undefined, key: string | null): unknown {
  if (value === undefined) return null
  if (typeof value === 'string') return isTextKey(key) ? new Y.Text(value) : value
  if (Array.isArray(value)) {
    const array = new Y.Array()
    array.insert(
      0,
      value.map((entry) => toY(entry, null))
    )
    return array
  }
  if (isPlainObject(value)) {
    const map = new Y.Map()
    for (const [entryKey, entry] of Object.entries(value)) {
      if (entry !== undefined) map.set(entryKey, toY(entry, entryKey))
    }
    return map
  }
  return value
}

function jsonOf(value: unknown): unknown {
  return value instanceof Y.AbstractType ? value.toJSON() : value
}

/** Whether `current` can be changed in place into `value` (same shape), else it is replaced. */
function sameKind(current: unknown, value: Json, key: string | null) {
  if (current instanceof Y.Map) return isPlainObject(value)
  if (current instanceof Y.Array) return Array.isArray(value)
  if (current instanceof Y.Text) return typeof value === 'string' && isTextKey(key)
  return false
}

function syncText(text: Y.Text, next: string) {
  const previous = text.toString()
  if (previous === next) return
  let start = 0
  const shortest = Math.min(previous.length, next.length)
  while (start < shortest && previous[start] === next[start]) start++
  let end = 0
  while (
    end < shortest - start &&
    previous[previous.length - 1 - end] === next[next.length - 1 - end]
  ) {
    end++
  }
  const removed = previous.length - start - end
  if (removed > 0) text.delete(start, removed)
  const inserted = next.slice(start, next.length - end)
  if (inserted) text.insert(start, inserted)
}

/** Changes `current` in place into `value` when they have the same shape; false otherwise. */
function syncValue(current: unknown, value: Json, key: string | null): boolean {
  if (!sameKind(current, value, key))
    return jsonEqual(jsonOf(current), value) && !isYText(value, key)
  if (current instanceof Y.Map) syncMap(current, value as Record<string, Json | undefined>)
  else if (current instanceof Y.Array) syncArray(current, value as Json[])
  else if (current instanceof Y.Text) syncText(current, value as string)
  return true
}

/** A string that should be a Y.Text: a plain string found in its place is replaced by one. */
function isYText(value: Json, key: string | null) {
  return typeof value === 'string' && isTextKey(key)
}

/** Writes the JSON object into the map: keys removed, set, or changed in place. */
export function syncMap(map: Y.Map<unknown>, value: Record<string, Json | undefined>) {
  for (const key of [...map.keys()]) {
    if (value[key] === undefined) map.delete(key)
  }
  for (const [key, entry] of Object.entries(value)) {
    if (entry === undefined) continue
    const current = map.get(key)
    if (current === undefined || !syncValue(current, entry, key)) map.set(key, toY(entry, key))
  }
}

function idOf(value: unknown): string | undefined {
  if (value instanceof Y.Map) {
    const id = value.get('id')
    return typeof id === 'string' ? id : undefined
  }
  if (isPlainObject(value)) return typeof value.id === 'string' ? value.id : undefined
  return undefined
}

/** Indexes (into `sequence`) of a longest increasing subsequence. */
function longestIncreasing(sequence: number[]): Set<number> {
  const tails: number[] = []
  const previous: number[] = Array.from({ length: sequence.length }, () => -1)
  sequence.forEach((value, index) => {
    let low = 0
    let high = tails.length
    while (low < high) {
      const middle = (low + high) >> 1
      if (sequence[tails[middle]] < value) low = middle + 1
      else high = middle
    }
    if (low > 0) previous[index] = tails[low - 1]
    tails[low] = index
  })
  const kept = new Set<number>()
  let index = tails.length > 0 ? tails[tails.length - 1] : -1
  while (index >= 0) {
    kept.add(index)
    index = previous[index]
  }
  return kept
}

/**
 * Entries with ids: those gone are deleted, those kept in order are changed in place, a
 * moved one is deleted and inserted at its new place (the fewest moves: a longest run of
 * entries still in order stays put), new ones are inserted.
 */
function syncById(array: Y.Array<unknown>, value: Json[]) {
  const nextIndex = new Map<string, number>()
  value.forEach((entry, index) => {
    const id = idOf(entry)
    if (id !== undefined && !nextIndex.has(id)) nextIndex.set(id, index)
  })
  const current = array.toArray()
  const seen = new Set<string>()
  const candidates: { at: number; target: number }[] = []
  const doomed: number[] = []
  current.forEach((entry, at) => {
    const id = idOf(entry)
    const target = id === undefined ? undefined : nextIndex.get(id)
    if (id === undefined || target === undefined || seen.has(id)) doomed.push(at)
    else {
      seen.add(id)
      candidates.push({ at, target })
    }
  })
  const inOrder = longestIncreasing(candidates.map((candidate) => candidate.target))
  candidates.forEach((candidate, index) => {
    if (!inOrder.has(index)) doomed.push(candidate.at)
  })
  doomed.sort((a, b) => b - a)
  for (const at of doomed) array.delete(at, 1)

  let position = 0
  for (const entry of value) {
    const existing = position < array.length ? array.get(position) : undefined
    if (existing !== undefined && idOf(existing) === idOf(entry)) {
      if (!syncValue(existing, entry, null)) replaceAt(array, position, entry)
    } else {
      array.insert(position, [toY(entry, null)])
    }
    position++
  }
  if (array.length > value.length) array.delete(value.length, array.length - value.length)
}

function replaceAt(array: Y.Array<unknown>, index: number, value: Json) {
  array.delete(index, 1)
  array.insert(index, [toY(value, null)])
}

/**
 * Entries without ids (rich text paragraphs, lists of values): the equal ends are kept, the
 * entries between are changed in place pairwise, and the surplus deleted or inserted.
 */
function syncByPosition(array: Y.Array<unknown>, value: Json[]) {
  const current = array.toArray()
  let start = 0
  while (
    start < current.length &&
    start < value.length &&
    jsonEqual(jsonOf(current[start]), value[start])
  ) {
    start++
  }
  let end = 0
  while (
    end < current.length - start &&
    end < value.length - start &&
    jsonEqual(jsonOf(current[current.length - 1 - end]), value[value.length - 1 - end])
  ) {
    end++
  }
  const oldMiddle = current.length - start - end
  const newMiddle = value.length - start - end
  const paired = Math.min(oldMiddle, newMiddle)
  for (let offset = 0; offset < paired; offset++) {
    const index = start + offset
    if (!syncValue(current[index], value[index], null)) replaceAt(array, index, value[index])
  }
  if (oldMiddle > paired) array.delete(start + paired, oldMiddle - paired)
  if (newMiddle > paired) {
    array.insert(
      start + paired,
      value.slice(start + paired, start + newMiddle).map((entry) => toY(entry, null))
    )
  }
}

export function syncArray(array: Y.Array<unknown>, value: Json[]) {
  const keyed =
    value.length > 0 &&
    value.every((entry) => idOf(entry) !== undefined) &&
    array.toArray().every((entry) => idOf(entry) !== undefined)
  if (keyed) syncById(array, value)
  else syncByPosition(array, value)
}

/** The draft's root map in a document. */
export function draftRoot(doc: Y.Doc) {
  return doc.getMap<unknown>(DRAFT_ROOT)
}

/** Writes a draft into the document, in one transaction marked with `origin`. */
export function writeDraft(doc: Y.Doc, draft: Record<string, unknown>, origin: unknown = null) {
  // JSON round trip: dates and class instances become what the wire would carry.
  const json = JSON.parse(JSON.stringify(draft)) as Record<string, Json | undefined>
  doc.transact(() => syncMap(draftRoot(doc), json), origin)
}

/**
 * Writes the change from `previous` to `next` into a document that holds `previous`. The
 * drafts come from an editor store, which keeps every unchanged part the same object: those
 * parts are skipped unread, so a group moved among 5,000 blocks costs that group, not a walk
 * of the whole draft on every pointer move. What changed is written as writeDraft would.
 */
export function writeDraftChange(
  doc: Y.Doc,
  previous: Record<string, unknown>,
  next: Record<string, unknown>,
  origin: unknown = null
) {
  doc.transact(() => syncChangedMap(draftRoot(doc), previous, next), origin)
}

/** A JSON value as the wire would carry it (dates as strings, no undefined in arrays). */
function wireJson(value: unknown): Json {
  return JSON.parse(JSON.stringify(value)) as Json
}

/** An object literal's shape (not a date or a class instance, which JSON changes). */
function isLiteral(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const prototype = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

function syncChangedMap(
  map: Y.Map<unknown>,
  previous: Record<string, unknown>,
  next: Record<string, unknown>
) {
  for (const key of [...map.keys()]) {
    if (next[key] === undefined) map.delete(key)
  }
  for (const [key, entry] of Object.entries(next)) {
    if (entry === undefined) continue
    const before = previous[key]
    const current = map.get(key)
    if (current !== undefined && before === entry) continue
    if (current !== undefined && syncChangedPart(current, before, entry)) continue
    const json = wireJson(entry)
    if (current === undefined || !syncValue(current, json, key)) map.set(key, toY(json, key))
  }
}

/**
 * Descends into a map or an array whose entries kept their places (a move, an edit), writing
 * only entries that are new objects; false when the shape changed (then the caller writes
 * the value whole, as writeDraft does).
 */
function syncChangedPart(current: unknown, before: unknown, entry: unknown): boolean {
  if (current instanceof Y.Map && isLiteral(before) && isLiteral(entry)) {
    syncChangedMap(current, before, entry)
    return true
  }
  if (!(current instanceof Y.Array) || !Array.isArray(before) || !Array.isArray(entry)) return false
  if (before.length !== entry.length || current.length !== entry.length) return false
  if (entry.some((item, index) => idOf(item) !== idOf(before[index]))) return false
  for (const [index, item] of entry.entries()) {
    if (item === before[index]) continue
    const existing = current.get(index)
    if (syncChangedPart(existing, before[index], item)) continue
    const json = wireJson(item ?? null)
    if (!syncValue(existing, json, null)) replaceAt(current, index, json)
  }
  return true
}

/** The draft the document holds, as plain JSON. */
export function readDraft(doc: Y.Doc): Record<string, unknown> {
  return draftRoot(doc).toJSON() as Record<string, unknown>
}

/**
 * `next` with every part deep-equal to the same part of `previous` replaced by that part:
 * an editor store then sees new objects only where something changed.
 */
export function keepUnchanged<T>(previous: unknown, next: T): T {
  if (jsonEqual(previous, next)) return previous as T
  if (Array.isArray(previous) && Array.isArray(next)) {
    const byId = new Map<string, unknown>()
    for (const entry of previous) {
      const id = idOf(entry)
      if (id !== undefined) byId.set(id, entry)
    }
    return next.map((entry, index) => {
      const id = idOf(entry)
      const before = id !== undefined && byId.has(id) ? byId.get(id) : previous[index]
      return keepUnchanged(before, entry)
    }) as T
  }
  if (isPlainObject(previous) && isPlainObject(next)) {
    const result: Record<string, unknown> = {}
    for (const [key, entry] of Object.entries(next))
      result[key] = keepUnchanged(previous[key], entry)
    return result as T
  }
  return next
}

export function encodeBase64(bytes: Uint8Array): string {
  let binary = ''
  for (let index = 0; index < bytes.length; index += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000))
  }
  return btoa(binary)
}

export function decodeBase64(text: string): Uint8Array {
  const binary = atob(text)
  const bytes = new Uint8Array(binary.length)
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index)
  return bytes
}

/**
 * A three-way merge of JSON drafts: what `theirs` changed from `base` is applied to `mine`
 * (a change on both sides of one value: theirs wins). Entries of arrays with ids merge by
 * id: deleted on either side stays deleted, added on either side is kept.
 */
export function mergeDrafts(base: unknown, theirs: unknown, mine: unknown): unknown {
  if (jsonEqual(base, theirs)) return mine
  if (jsonEqual(base, mine)) return theirs
  if (isPlainObject(base) && isPlainObject(theirs) && isPlainObject(mine)) {
    const result: Record<string, unknown> = {}
    for (const key of new Set([...Object.keys(mine), ...Object.keys(theirs)])) {
      const value = mergeDrafts(base[key], theirs[key], mine[key])
      if (value !== undefined) result[key] = value
    }
    return result
  }
  if (Array.isArray(base) && Array.isArray(theirs) && Array.isArray(mine)) {
    const ided = (list: unknown[]) => list.every((entry) => idOf(entry) !== undefined)
    if (ided(base) && ided(theirs) && ided(mine)) {
      const byId = (list: unknown[]) => new Map(list.map((entry) => [idOf(entry)!, entry]))
      const [baseById, theirsById, mineById] = [byId(base), byId(theirs), byId(mine)]
      const merged: unknown[] = []
      for (const entry of mine) {
        const id = idOf(entry)!
        if (baseById.has(id) && !theirsById.has(id)) continue
        merged.push(
          theirsById.has(id) ? mergeDrafts(baseById.get(id), theirsById.get(id), entry) : entry
        )
      }
      for (const entry of theirs) {
        const id = idOf(entry)!
        if (!baseById.has(id) && !mineById.has(id)) merged.push(entry)
      }
      return merged
    }
  }
  return theirs
}
