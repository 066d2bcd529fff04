import { memo, useEffect, useState } from 'react'
import { Handle, Position, useUpdateNodeInternals, type NodeProps } from '@xyflow/react'
import { useShallow } from 'zustand/react/shallow'
import { useTranslation } from 'react-i18next'
import {
  CircleAlertIcon,
  CopyIcon,
  EllipsisIcon,
  PinIcon,
  PowerIcon,
  PowerOffIcon,
  Trash2Icon,
  TriangleAlertIcon,
} from 'lucide-react'
import type { WorkflowBlock } from '#shared/workflow/types'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '~/components/ui/dropdown_menu'
import { ConfirmDialog } from '~/components/confirm_dialog'
import { PluginIcon } from '~/features/plugin_form/plugin_icon'
import { itemChoiceLabel } from '~/features/plugin_form/translated_form'
import { clientDeclaration } from '~/lib/plugin_registry'
import { DIFF_ITEM_CLASSES } from '~/features/editor_shell/diff_styles'
import { cn } from '~/lib/utils'
import { CLICK_CONNECTING_CLASS } from '~/features/canvas/connect_hint'
import { SourceHandle } from '~/features/canvas/keyboard_connect'
import {
  selectNodeRunStatus,
  useWorkflowEditor,
  useWorkflowEditorApi,
  type WorkflowEditorState,
} from './workflow_editor_store'
import { deleteNodes, duplicateNode, setNodeDisabled } from './workflow_editing'
import { isAttachable, isTrigger, useWorkflowPlugin } from './workflow_plugins'
import {
  ATTACHED_HANDLE,
  branchHandleId,
  conditionSummary,
  IN_HANDLE,
  OUT_HANDLE,
  slotHandleId,
} from './node_summary'
import type { NodeRunStatus, WorkflowEditorPlugin } from './types'

export interface WorkflowNodeData extends Record<string, unknown> {
  nodeId: string
}

const EMPTY_BLOCK: WorkflowBlock = { id: '', type: '', graphCoordinates: { x: 0, y: 0 } }
const EMPTY_VARIABLES: never[] = []

const handleClass = cn('!size-3 !border-2 !border-background !bg-primary', CLICK_CONNECTING_CLASS)

/** Ring and dot colours of each run status (DESIGN: status lives beside the graph). */
const STATUS_STYLES: Record<NodeRunStatus, { ring: string; dot: string }> = {
  pending: { ring: 'ring-2 ring-muted-foreground/30', dot: 'bg-muted-foreground/50' },
  running: { ring: 'ring-2 ring-sky-500/60', dot: 'bg-sky-500 animate-pulse' },
  success: { ring: 'ring-2 ring-emerald-500/60', dot: 'bg-emerald-500' },
  error: { ring: 'ring-2 ring-destructive/70', dot: 'bg-destructive' },
  skipped: { ring: 'ring-2 ring-muted-foreground/20 ring-dashed', dot: 'bg-muted-foreground/30' },
  waiting: { ring: 'ring-2 ring-amber-500/60', dot: 'bg-amber-500' },
  interrupted: { ring: 'ring-2 ring-orange-500/60', dot: 'bg-orange-500' },
}

const NO_SLOTS = ''

/**
 * The required slots of an enabled agent node with no enabled node plugged in, as a string so the
 * selector's result compares by value (publishing refuses the workflow in that state).
 */
function selectMissingSlots(id: string, plugin: WorkflowEditorPlugin | undefined) {
  const required = (plugin?.attachments ?? []).filter((slot) => slot.required)
  return (state: WorkflowEditorState) => {
    if (required.length === 0) return NO_SLOTS
    const { blocks, edges } = state.history.present
    // A disabled agent is left out of the published workflow: nothing is required of it.
    if (blocks.find((block) => block.id === id)?.isDisabled) return NO_SLOTS
    const enabled = new Set(blocks.filter((b) => !b.isDisabled).map((b) => b.id))
    return required
      .filter(
        (slot) =>
          !edges.some(
            (edge) =>
              edge.isAttachment === true &&
              edge.from.blockId === id &&
              edge.attachmentName === slot.name &&
              enabled.has(edge.to.blockId)
          )
      )
      .map((slot) => slot.name)
      .join(' ')
  }
}

/**
 * A node on the canvas. Memoised and reading only its own block from the store (by id),
 * so that editing one node re-renders that node alone; its run status comes from the
 * separate status map.
 */
export const WorkflowNode = memo(function WorkflowNodeView({ id, selected }: NodeProps) {
  const { t } = useTranslation()
  const api = useWorkflowEditorApi()
  const { block, readOnly, isOpen, variables } = useWorkflowEditor(
    useShallow((state) => {
      const found = state.history.present.blocks.find((candidate) => candidate.id === id)
      return {
        block: found ?? EMPTY_BLOCK,
        readOnly: state.readOnly,
        isOpen: state.openNodeId === id,
        // Only condition nodes show variable names.
        variables: found?.conditions ? state.history.present.variables : EMPTY_VARIABLES,
      }
    })
  )
  const status = useWorkflowEditor(selectNodeRunStatus(id))
  const diffKind = useWorkflowEditor((state) => state.diff?.[id])
  const issue = useWorkflowEditor((state) => state.issues[id]?.[0])
  const plugin = useWorkflowPlugin(block.type)
  const missingSlots = useWorkflowEditor(selectMissingSlots(id, plugin))
  const updateNodeInternals = useUpdateNodeInternals()
  const [confirmDelete, setConfirmDelete] = useState(false)
  const conditions = block.conditions ?? []
  const coversEveryPath = clientDeclaration(block.type)?.items?.coverEveryPath === true
  const slots = plugin?.attachments ?? []
  const missing = missingSlots
    ? slots.filter((slot) => missingSlots.split(' ').includes(slot.name))
    : []
  const attachable = isAttachable(plugin)
  const trigger = isTrigger(plugin)
  const name = block.title || plugin?.name || block.type
  const handleHint = t('editorCanvas.connect.nodeHandleHint')

  // Branch handles come and go with the branches: React Flow must measure them again.
  useEffect(
    () => updateNodeInternals(id),
    [conditions.length, slots.length, id, updateNodeInternals]
  )

  const edit = api.getState().edit
  const statusStyle = status ? STATUS_STYLES[status] : undefined

  return (
    <div
      data-testid="workflow-node"
      data-node-id={id}
      data-node-type={block.type}
      data-run-status={status}
      data-disabled={block.isDisabled || undefined}
      data-diff={diffKind}
      data-issues={issue ? true : undefined}
      className={cn(
        'relative w-60 rounded-xl border bg-card text-left text-card-foreground shadow-sm',
        issue && 'border-destructive',
        diffKind && DIFF_ITEM_CLASSES[diffKind],
        selected && 'border-primary',
        isOpen && 'ring-2 ring-primary/40',
        statusStyle?.ring,
        block.isDisabled && 'border-dashed opacity-60'
      )}
    >
      {attachable ? (
        <Handle
          type="target"
          id={ATTACHED_HANDLE}
          position={Position.Top}
          className={cn(handleClass, '!rounded-sm !bg-violet-500')}
          isConnectable={!readOnly}
          data-testid="node-handle-attached"
        />
      ) : (
        !trigger && (
          <Handle
            type="target"
            id={IN_HANDLE}
            position={Position.Left}
            className={handleClass}
            style={{ top: 26 }}
            isConnectable={!readOnly}
            data-testid="node-handle-in"
          />
        )
      )}
      <div className="flex items-center gap-2 px-3 py-2.5">
        <span
          className={cn(
            'flex size-8 shrink-0 items-center justify-center rounded-lg',
            trigger ? 'bg-amber-500/15 text-amber-600' : 'bg-primary/10 text-primary'
          )}
        >
          <PluginIcon id={block.type} icon={plugin?.icon} className="size-4" />
        </span>
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-semibold" data-testid="node-title">
            {name}
          </p>
          <p className="truncate text-xs text-muted-foreground">
            {block.isDisabled ? (
              <span data-testid="node-disabled">{t('workflowEditor.node.disabled')}</span>
            ) : plugin ? (
              block.title ? (
                plugin.name
              ) : (
                t(`workflowEditor.nodeFamily.${plugin.category}`, { defaultValue: plugin.category })
              )
            ) : (
              <span className="inline-flex items-center gap-1 text-destructive">
                <TriangleAlertIcon className="size-3" aria-hidden />
                {t('workflowEditor.node.unknownType')}
              </span>
            )}
          </p>
        </div>
        {trigger && block.pinnedData !== undefined && (
          // Test runs start from this sample, not the real event: it must show.
          <PinIcon
            data-testid="node-pinned-mark"
            role="img"
            aria-label={t('nodeData.pinned')}
            className="size-3.5 shrink-0 text-primary"
          >
            <title>{t('nodeData.pinned')}</title>
          </PinIcon>
        )}
        {issue && (
          <CircleAlertIcon
            data-testid="node-issue"
            role="img"
            aria-label={t('editorCanvas.issues', { message: issue.message })}
            className="size-4 shrink-0 text-destructive"
          >
            <title>{t('editorCanvas.issues', { message: issue.message })}</title>
          </CircleAlertIcon>
        )}
        {status && (
          <span
            data-testid="node-status"
            data-status={status}
            role="status"
            aria-label={t(`workflowEditor.run.status.${status}`)}
            title={t(`workflowEditor.run.status.${status}`)}
            className={cn('size-2.5 shrink-0 rounded-full', statusStyle?.dot)}
          />
        )}
        {!readOnly && (
          <DropdownMenu>
            <DropdownMenuTrigger
              className="nodrag rounded-md p-1 text-muted-foreground outline-none hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring/50"
              aria-label={t('workflowEditor.node.menu', { name })}
              data-testid="node-menu"
              onClick={(event) => event.stopPropagation()}
            >
              <EllipsisIcon className="size-4" />
            </DropdownMenuTrigger>
            <DropdownMenuContent align="end" onClick={(event) => event.stopPropagation()}>
              <DropdownMenuItem
                data-testid="node-toggle"
                onSelect={() => edit((doc) => setNodeDisabled(doc, id, !block.isDisabled))}
              >
                {block.isDisabled ? <PowerIcon /> : <PowerOffIcon />}
                {block.isDisabled
                  ? t('workflowEditor.node.enable')
                  : t('workflowEditor.node.disable')}
              </DropdownMenuItem>
              <DropdownMenuItem
                data-testid="node-duplicate"
                onSelect={() => {
                  let copyId: string | undefined
                  edit((doc) => {
                    const result = duplicateNode(doc, id)
                    copyId = result.blockId
                    return result.doc
                  })
                  if (copyId) api.getState().openNode(copyId)
                }}
              >
                <CopyIcon /> {t('workflowEditor.node.duplicate')}
              </DropdownMenuItem>
              <DropdownMenuSeparator />
              <DropdownMenuItem
                variant="destructive"
                data-testid="node-delete"
                onSelect={() => setConfirmDelete(true)}
              >
                <Trash2Icon /> {t('workflowEditor.node.delete')}
              </DropdownMenuItem>
            </DropdownMenuContent>
          </DropdownMenu>
        )}
      </div>

      {conditions.length > 0 && (
        <ul className="flex flex-col gap-1.5 border-t px-3 py-2" data-testid="node-branches">
          {conditions.map((condition, index) => (
            <li
              key={condition.id}
              data-testid="node-branch"
              data-condition-id={condition.id}
              className="relative rounded-md border bg-muted/50 px-2 py-1 text-xs"
            >
              <span className="block truncate">
                {conditionSummary(condition, variables) ||
                  itemChoiceLabel(block.type, condition) ||
                  t('workflowEditor.node.branch', { number: index + 1 })}
              </span>
              <SourceHandle
                title={readOnly ? undefined : handleHint}
                id={branchHandleId(condition.id)}
                position={Position.Right}
                className={handleClass}
                style={{ right: -19 }}
                isConnectable={!readOnly}
                data-testid="node-handle-branch"
              />
            </li>
          ))}
          <li
            className={cn(
              'relative px-2 py-0.5 text-right text-xs text-muted-foreground',
              // Branches covering every way out (a Loop's exits) leave no "otherwise".
              coversEveryPath && 'hidden'
            )}
          >
            {t('workflowEditor.node.otherwise')}
            <SourceHandle
              title={readOnly ? undefined : handleHint}
              id={OUT_HANDLE}
              position={Position.Right}
              className={handleClass}
              style={{ right: -19 }}
              isConnectable={!readOnly}
              data-testid="node-handle-out"
            />
          </li>
        </ul>
      )}

      {conditions.length === 0 && !attachable && (
        <SourceHandle
          title={readOnly ? undefined : handleHint}
          id={OUT_HANDLE}
          position={Position.Right}
          className={handleClass}
          style={{ top: 26 }}
          isConnectable={!readOnly}
          data-testid="node-handle-out"
        />
      )}

      {missing.length > 0 && (
        <p
          className="flex items-center gap-1 border-t px-3 py-1 text-[11px] font-medium text-destructive"
          data-testid="node-slot-missing"
          data-slots={missingSlots}
          role="status"
        >
          <TriangleAlertIcon className="size-3 shrink-0" aria-hidden />
          {missing
            .map((slot) => t('workflowEditor.node.slotRequired', { slot: slot.label }))
            .join(' · ')}
        </p>
      )}

      {slots.length > 0 && (
        <div className="flex justify-around border-t px-2 pt-1.5 pb-3 text-[11px] text-muted-foreground">
          {slots.map((slot) => (
            <span
              key={slot.name}
              className="relative"
              data-testid="node-slot"
              data-slot={slot.name}
            >
              {slot.label}
              {slot.multiple ? ' +' : ''}

              <SourceHandle
                title={readOnly ? undefined : handleHint}
                id={slotHandleId(slot.name)}
                position={Position.Bottom}
                className={cn(handleClass, '!rounded-sm !bg-violet-500')}
                style={{ bottom: -18 }}
                isConnectable={!readOnly}
                data-testid={`node-handle-slot-${slot.name}`}
              />
            </span>
          ))}
        </div>
      )}

      <ConfirmDialog
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title={t('workflowEditor.node.deleteTitle', { name })}
        description={t('workflowEditor.node.deleteDescription')}
        confirmLabel={t('workflowEditor.node.delete')}
        onConfirm={() => edit((doc) => deleteNodes(doc, [id]))}
      />
    </div>
  )
})
