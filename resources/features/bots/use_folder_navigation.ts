import { useEffect, useState } from 'react'
import { router } from '@inertiajs/react'

/**
 * True while an Inertia visit to another dashboard folder is on its way (the grid then shows
 * skeletons). Form posts and their redirects back do not count.
 */
export function useFolderNavigation() {
  const [loading, setLoading] = useState(false)
  useEffect(() => {
    const offStart = router.on('start', (event) => {
      const visit = event.detail.visit
      if (visit.method !== 'get' || visit.only.length > 0) return
      if (visit.url.pathname === '/bots') setLoading(true)
    })
    const offFinish = router.on('finish', () => setLoading(false))
    return () => {
      offStart()
      offFinish()
    }
  }, [])
  return loading
}
