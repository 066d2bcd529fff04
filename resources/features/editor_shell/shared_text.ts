import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react'

/**
 * A text field of a shared draft (docs/editor.md "Editing together"): a colleague may change
 * the text while this person types in it. Their text is taken as it arrives, this person's
 * caret stays beside the characters it was beside, and what this person types goes into the
 * text as it is now rather than over it.
 */

/** The one change (an insertion, a deletion or a replacement) that turns `previous` into `next`. */
export function textChange(previous: string, next: string) {
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
  return {
    start,
    removedEnd: previous.length - end,
    inserted: next.slice(start, next.length - end),
  }
}

/**
 * Where a caret goes when a text changes under it: unmoved before the change, moved by the
 * change's length after it, at the end of what was inserted inside it.
 */
export function caretShift(previous: string, next: string) {
  const { start, removedEnd, inserted } = textChange(previous, next)
  const insertedEnd = start + inserted.length
  return (position: number) => {
    if (position <= start) return position
    if (position >= removedEnd) return position + next.length - previous.length
    return insertedEnd
  }
}

/** The change from `shown` to `typed`, made to `current` instead (`shown` plus others' edits). */
export function rebaseText(shown: string, typed: string, current: string) {
  if (shown === current) return typed
  const change = textChange(shown, typed)
  const shift = caretShift(shown, current)
  const start = shift(change.start)
  const end = Math.max(start, shift(change.removedEnd))
  return current.slice(0, start) + change.inserted + current.slice(end)
}

/**
 * The field's text, following `stored` (the draft's text) when someone else changes it.
 * `typed(element, current)` turns what the field now shows into the text to write, given the
 * draft's text now; `written(text)` tells the hook this person wrote `text`.
 */
export function useSharedText(
  stored: string,
  field: RefObject<HTMLTextAreaElement | HTMLInputElement | null>
) {
  const [text, setText] = useState(stored)
  // The text as this field last wrote it: any other text in the draft is someone else's.
  const written = useRef(stored)
  const keptSelection = useRef<{ start: number; end: number } | null>(null)

  useEffect(() => {
    if (stored === written.current) return
    const element = field.current
    const previous = element?.value ?? written.current
    if (element && document.activeElement === element) {
      const shift = caretShift(previous, stored)
      keptSelection.current = {
        start: shift(element.selectionStart ?? 0),
        end: shift(element.selectionEnd ?? 0),
      }
    }
    written.current = stored
    setText(stored)
  }, [stored, field])

  useLayoutEffect(() => {
    const selection = keptSelection.current
    if (!selection) return
    keptSelection.current = null
    field.current?.setSelectionRange(selection.start, selection.end)
  }, [text, field])

  return {
    text,
    written(next: string) {
      written.current = next
      setText(next)
    },
    typed(element: HTMLTextAreaElement | HTMLInputElement, current: string) {
      const next = rebaseText(text, element.value, current)
      if (next !== element.value) {
        const cursor = caretShift(element.value, next)(element.selectionStart ?? 0)
        keptSelection.current = { start: cursor, end: cursor }
      }
      return next
    },
  }
}
