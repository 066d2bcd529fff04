import { useEffect } from 'react'
import { create } from 'zustand'
import { APPEARANCES, type Appearance } from '#shared/workspace_roles'

/**
 * Colour mode: follows the user's preferredAppAppearance; 'system' follows
 * the operating system live. The choice is kept in localStorage 'colorMode' so the edge layout
 * can apply it before the first paint.
 */
const STORAGE_KEY = 'colorMode'
const DARK_QUERY = '(prefers-color-scheme: dark)'

function isAppearance(value: unknown): value is Appearance {
  return typeof value === 'string' && (APPEARANCES as readonly string[]).includes(value)
}

function readStored(): Appearance {
  try {
    const stored = localStorage.getItem(STORAGE_KEY)
    if (isAppearance(stored)) return stored
  } catch {}
  return 'system'
}

function systemPrefersDark() {
  return (
    typeof window !== 'undefined' &&
    typeof window.matchMedia === 'function' &&
    window.matchMedia(DARK_QUERY).matches
  )
}

interface ColorModeState {
  mode: Appearance
  systemDark: boolean
  setMode: (mode: Appearance) => void
  setSystemDark: (dark: boolean) => void
}

export const useColorModeStore = create<ColorModeState>((set) => ({
  mode: typeof window === 'undefined' ? 'system' : readStored(),
  systemDark: systemPrefersDark(),
  setMode: (mode) => {
    if (!isAppearance(mode)) return
    try {
      localStorage.setItem(STORAGE_KEY, mode)
    } catch {}
    set({ mode })
  },
  setSystemDark: (systemDark) => set({ systemDark }),
}))

export function resolveMode(mode: Appearance, systemDark: boolean): 'light' | 'dark' {
  return mode === 'dark' || (mode === 'system' && systemDark) ? 'dark' : 'light'
}

export function useColorMode() {
  const mode = useColorModeStore((s) => s.mode)
  const systemDark = useColorModeStore((s) => s.systemDark)
  const setMode = useColorModeStore((s) => s.setMode)
  return { mode, resolved: resolveMode(mode, systemDark), setMode }
}

/**
 * Applies the colour mode to <html> and listens to the OS setting. Mounted once (AppProviders).
 */
export function useApplyColorMode() {
  const { resolved } = useColorMode()
  const setSystemDark = useColorModeStore((s) => s.setSystemDark)

  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return
    const query = window.matchMedia(DARK_QUERY)
    const onChange = (event: MediaQueryListEvent) => setSystemDark(event.matches)
    setSystemDark(query.matches)
    query.addEventListener('change', onChange)
    return () => query.removeEventListener('change', onChange)
  }, [setSystemDark])

  useEffect(() => {
    document.documentElement.classList.toggle('dark', resolved === 'dark')
  }, [resolved])
}

/** Follows the signed-in user's saved preference whenever it changes (sign-in, reload, other tab). */
export function useSyncUserColorMode(preference: Appearance | null | undefined) {
  const setMode = useColorModeStore((s) => s.setMode)
  useEffect(() => {
    if (preference) setMode(preference)
  }, [preference, setMode])
}
