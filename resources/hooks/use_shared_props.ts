import { usePage } from '@inertiajs/react'
import type { SharedProps } from '#shared/types'

/** The page's props typed with the shared props every page receives. */
export function usePageProps<T extends object = {}>() {
  return usePage().props as unknown as SharedProps & T
}
