import { useCallback, useEffect, useRef, useState } from 'react'

/** Copies text to the clipboard; `copied` is true for a moment afterwards. */
export function useCopy(resetAfterMs = 2000) {
  const [copied, setCopied] = useState(false)
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current)
    },
    []
  )

  const copy = useCallback(
    async (text: string) => {
      let ok = false
      try {
        await navigator.clipboard.writeText(text)
        ok = true
      } catch {
        // Clipboard API unavailable (insecure context): fall back to a hidden textarea.
        const area = document.createElement('textarea')
        area.value = text
        area.setAttribute('readonly', '')
        area.style.position = 'fixed'
        area.style.opacity = '0'
        document.body.appendChild(area)
        area.select()
        try {
          ok = document.execCommand('copy')
        } catch {
          ok = false
        }
        area.remove()
      }
      if (ok) {
        setCopied(true)
        if (timer.current) clearTimeout(timer.current)
        timer.current = setTimeout(() => setCopied(false), resetAfterMs)
      }
      return ok
    },
    [resetAfterMs]
  )

  return { copied, copy }
}
