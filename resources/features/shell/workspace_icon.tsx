import { cn } from '~/lib/utils'

/** A workspace's icon: an image URL, an emoji or short text, else the name's first letter. */
export function WorkspaceIcon({
  icon,
  name,
  className,
}: {
  icon: string | null
  name: string
  className?: string
}) {
  const value = icon?.trim()
  const isImage = !!value && (/^https?:\/\//.test(value) || value.startsWith('/'))
  return (
    <span
      aria-hidden
      className={cn(
        'flex size-7 shrink-0 items-center justify-center overflow-hidden rounded-md bg-primary/10 text-sm font-semibold text-primary',
        className
      )}
    >
      {isImage ? (
        <img src={value} alt="" className="size-full object-cover" />
      ) : value ? (
        <span className="truncate leading-none">{[...value].slice(0, 2).join('')}</span>
      ) : (
        (name.trim()[0] ?? '?').toUpperCase()
      )}
    </span>
  )
}
