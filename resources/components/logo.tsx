import { WorkflowIcon } from 'lucide-react'
import { cn } from '~/lib/utils'

export function Logo({ className }: { className?: string }) {
  return (
    <span className={cn('inline-flex items-center gap-2 font-semibold tracking-tight', className)}>
      <span className="flex size-7 items-center justify-center rounded-md bg-primary text-primary-foreground">
        <WorkflowIcon aria-hidden className="size-4" />
      </span>
      {/* The product name is a brand and is not translated. */}
      <span>Flowcraft</span>
    </span>
  )
}
