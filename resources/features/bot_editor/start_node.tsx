import { memo } from 'react'
import { Position, type NodeProps } from '@xyflow/react'
import { useTranslation } from 'react-i18next'
import { PlayIcon } from 'lucide-react'
import { cn } from '~/lib/utils'
import { SourceHandle } from '~/features/canvas/keyboard_connect'
import { useBotEditor } from './bot_editor_store'
import { EVENT_HANDLE } from './canvas_nodes'
import { handleClass } from './group_node'

/** The start event: where every chat begins. */
export const StartNode = memo(function StartNodeView({ selected }: NodeProps) {
  const { t } = useTranslation()
  const readOnly = useBotEditor((state) => state.readOnly)
  return (
    <div
      data-testid="start-node"
      className={cn(
        'flex w-44 items-center gap-2 text-left rounded-xl border bg-card px-3 py-2.5 text-sm font-semibold shadow-sm',
        selected && 'border-primary ring-2 ring-primary/30'
      )}
    >
      <PlayIcon className="size-4 text-primary" aria-hidden />
      {t('editor.start')}
      <SourceHandle
        id={EVENT_HANDLE}
        position={Position.Right}
        className={handleClass}
        data-testid="event-handle"
        title={readOnly ? undefined : t('editorCanvas.connect.handleHint')}
        isConnectable={!readOnly}
      />
    </div>
  )
})
