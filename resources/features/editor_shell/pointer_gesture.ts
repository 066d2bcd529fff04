/**
 * Whether a pointer is held on the page (a drag, a pan, a selection box under way). Work that
 * would stall the main thread for a moment, such as applying a large shared draft, waits for
 * the gesture's end: a stalled frame in a drag is felt, the same stall after it is not.
 */
export function watchPointerGestures() {
  const held = new Set<number>()
  let waiting: (() => void)[] = []
  const press = (event: PointerEvent) => held.add(event.pointerId)
  const release = (event: PointerEvent) => {
    held.delete(event.pointerId)
    if (held.size > 0) return
    const done = waiting
    waiting = []
    for (const resolve of done) resolve()
  }
  // Capture: a canvas that stops the event's propagation still lets the window know.
  window.addEventListener('pointerdown', press, true)
  window.addEventListener('pointerup', release, true)
  window.addEventListener('pointercancel', release, true)
  return {
    /** Resolves at once when no pointer is held, else when the last one is let go. */
    idle(): Promise<void> {
      if (held.size === 0) return Promise.resolve()
      return new Promise((resolve) => waiting.push(resolve))
    },
    stop() {
      window.removeEventListener('pointerdown', press, true)
      window.removeEventListener('pointerup', release, true)
      window.removeEventListener('pointercancel', release, true)
      const done = waiting
      waiting = []
      for (const resolve of done) resolve()
    },
  }
}
