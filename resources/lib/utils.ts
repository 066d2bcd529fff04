import { clsx, type ClassValue } from 'clsx'
import { twMerge } from 'tailwind-merge'

export function cn(...inputs: ClassValue[]) {
  return twMerge(clsx(inputs))
}

/** Initials for avatars: "Ada Lovelace" -> "AL", "ada@x.io" -> "A". */
export function initials(nameOrEmail: string | null | undefined) {
  const source = (nameOrEmail ?? '').trim()
  if (!source) return '?'
  const words = source
    .split('@')[0]
    .split(/[\s._-]+/)
    .filter(Boolean)
  return (words.length > 1 ? words[0][0] + words[1][0] : source[0]).toUpperCase()
}
