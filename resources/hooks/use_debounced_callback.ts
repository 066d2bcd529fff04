import { useCallback, useEffect, useRef } from 'react'

/**
 * Returns a function that calls `callback` once `delay` ms have passed without a new call.
 * A pending call runs when the component unmounts, so a change is not lost on closing.
 */
export function useDebouncedCallback<A extends unknown[]>(
  callback: (...args: A) => void,
  delay: number
) {
  const callbackRef = useRef(callback)
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  const pending = useRef<A | null>(null)
  callbackRef.current = callback

  useEffect(() => {
    return () => {
      if (timer.current) clearTimeout(timer.current)
      if (pending.current) callbackRef.current(...pending.current)
    }
  }, [])

  return useCallback(
    (...args: A) => {
      pending.current = args
      if (timer.current) clearTimeout(timer.current)
      timer.current = setTimeout(() => {
        timer.current = null
        const next = pending.current
        pending.current = null
        if (next) callbackRef.current(...next)
      }, delay)
    },
    [delay]
  )
}
