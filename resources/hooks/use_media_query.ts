import { useCallback, useSyncExternalStore } from 'react'

/** Below Tailwind's `md` breakpoint: phones, where the editors fold their side panels. */
export const NARROW_QUERY = '(max-width: 767px)'

const supported = () => typeof window !== 'undefined' && typeof window.matchMedia === 'function'

/** Whether a CSS media query matches, kept current as the window resizes. */
export function useMediaQuery(query: string) {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (!supported()) return () => {}
      const media = window.matchMedia(query)
      media.addEventListener('change', onChange)
      return () => media.removeEventListener('change', onChange)
    },
    [query]
  )
  return useSyncExternalStore(
    subscribe,
    () => supported() && window.matchMedia(query).matches,
    () => false
  )
}
