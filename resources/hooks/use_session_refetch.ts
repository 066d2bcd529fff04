import { useEffect, useRef } from 'react'
import { router } from '@inertiajs/react'
import { HttpError, jsonFetch } from '~/lib/http'
import type { UserDto, WorkspaceSummaryDto } from '#shared/types'

interface SessionAnswer {
  user: UserDto
  currentWorkspace: WorkspaceSummaryDto | null
  expires: string
}

/** A tab hidden and shown again within this many ms does not ask again. */
const QUIET_MS = 10_000

/**
 * When a signed-in tab becomes visible again (GET /api/auth/session?update, then a
 * refetch on visibility change), asks the server for the session: signed out meanwhile (in
 * another tab, or everywhere), the tab goes to the sign-in page instead of failing on its next
 * save; the account or the workspace changed in another tab, the page's shared props are
 * reloaded so the menus, the plan and the language are right again.
 */
export function useSessionRefetch(user: UserDto | null, workspaceId: string | null) {
  const known = useRef({ user, workspaceId })
  known.current = { user, workspaceId }
  const signedIn = user !== null

  useEffect(() => {
    if (!signedIn) return
    // The page was just loaded with fresh props: the first return counts from then only if
    // it comes within the quiet time.
    let last = 0
    let inFlight: AbortController | null = null
    async function refetch() {
      if (document.visibilityState !== 'visible' || Date.now() - last < QUIET_MS) return
      last = Date.now()
      inFlight?.abort()
      const controller = new AbortController()
      inFlight = controller
      try {
        const session = await jsonFetch<SessionAnswer>('/api/auth/session?update', {
          signal: controller.signal,
        })
        const { user: shown, workspaceId: shownWorkspace } = known.current
        const changed =
          JSON.stringify(session.user) !== JSON.stringify(shown) ||
          (session.currentWorkspace?.id ?? null) !== shownWorkspace
        if (changed) {
          router.reload({ only: ['user', 'workspaces', 'currentWorkspace', 'planUsage'] })
        }
      } catch (error) {
        if (error instanceof HttpError && error.status === 401) {
          const here = window.location.pathname + window.location.search
          window.location.assign(`/signin?redirectPath=${encodeURIComponent(here)}`)
        }
        // Offline or a server hiccup: the next visibility change asks again.
      }
    }
    const onVisibility = () => void refetch()
    document.addEventListener('visibilitychange', onVisibility)
    return () => {
      document.removeEventListener('visibilitychange', onVisibility)
      inFlight?.abort()
    }
  }, [signedIn])
}
