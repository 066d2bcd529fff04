import { useTranslation } from 'react-i18next'
import { XIcon } from 'lucide-react'
import type { WorkflowBlock } from '#shared/workflow/types'
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '~/components/ui/select'
import { useWorkflowEditor, useWorkflowEditorApi } from './workflow_editor_store'
import { attach, connect, deleteEdges } from './workflow_editing'
import { isAttachable, isTrigger, useWorkflowPlugins } from './workflow_plugins'
import { conditionSummary } from './node_summary'
import type { AttachmentSlot, WorkflowEditorPlugin } from './types'

interface Output {
  /** 'out', 'branch:<id>' or 'slot:<name>': also the data-testid suffix. */
  key: string
  label: string
  conditionId?: string
  slot?: AttachmentSlot
}

/**
 * Where each way out of the node leads, with a select to add a connection: what dragging
 * from a handle does, for keyboards and screen readers.
 */
export function Connections({
  block,
  plugin,
  readOnly,
}: {
  block: WorkflowBlock
  plugin: WorkflowEditorPlugin | undefined
  readOnly: boolean
}) {
  const { t } = useTranslation()
  const api = useWorkflowEditorApi()
  const plugins = useWorkflowPlugins()
  const blocks = useWorkflowEditor((state) => state.history.present.blocks)
  const edges = useWorkflowEditor((state) => state.history.present.edges)
  const variables = useWorkflowEditor((state) => state.history.present.variables)
  const attachable = isAttachable(plugin)

  const outputs: Output[] = []
  const conditions = block.conditions ?? []
  conditions.forEach((condition, index) => {
    const summary = conditionSummary(condition, variables)
    outputs.push({
      key: `branch:${condition.id}`,
      conditionId: condition.id,
      label: `${t('workflowEditor.node.branch', { number: index + 1 })}${summary ? ` (${summary})` : ''}`,
    })
  })
  if (!attachable) {
    outputs.push({
      key: 'out',
      label:
        conditions.length > 0
          ? t('workflowEditor.node.otherwise')
          : t('workflowEditor.connections.next'),
    })
  }
  for (const slot of plugin?.attachments ?? []) {
    outputs.push({ key: `slot:${slot.name}`, label: slot.label, slot })
  }
  if (outputs.length === 0) return null

  const nameOf = (id: string) => {
    const found = blocks.find((candidate) => candidate.id === id)
    if (!found) return id
    return found.title || plugins.get(found.type)?.name || found.type
  }

  return (
    <section className="grid gap-3" data-testid="node-connections">
      <h3 className="text-sm font-semibold">{t('workflowEditor.connections.title')}</h3>
      {outputs.map((output) => {
        const leaving = edges.filter((edge) => {
          if (edge.from.blockId !== block.id) return false
          if (output.slot)
            return edge.isAttachment === true && edge.attachmentName === output.slot.name
          if (edge.isAttachment) return false
          return (edge.from.conditionId ?? undefined) === output.conditionId
        })
        const taken = new Set(leaving.map((edge) => edge.to.blockId))
        const candidates = blocks.filter((candidate) => {
          if (candidate.id === block.id || taken.has(candidate.id)) return false
          const candidatePlugin = plugins.get(candidate.type)
          if (output.slot) {
            return !!candidatePlugin && output.slot.accepts.includes(candidatePlugin.category)
          }
          return !isTrigger(candidatePlugin) && !isAttachable(candidatePlugin)
        })
        return (
          <div
            key={output.key}
            className="grid gap-2 rounded-lg border p-3"
            data-testid="node-output"
            data-output={output.key}
          >
            <p className="text-xs font-medium text-muted-foreground">{output.label}</p>
            {leaving.length === 0 ? (
              <p className="text-xs text-muted-foreground">
                {t('workflowEditor.connections.none')}
              </p>
            ) : (
              <ul className="grid gap-1">
                {leaving.map((edge) => (
                  <li
                    key={edge.id}
                    className="flex items-center gap-2 text-sm"
                    data-testid="node-connection"
                    data-target-id={edge.to.blockId}
                  >
                    <span className="min-w-0 flex-1 truncate">→ {nameOf(edge.to.blockId)}</span>
                    {!readOnly && (
                      <button
                        type="button"
                        data-testid="node-connection-remove"
                        aria-label={t('workflowEditor.connections.remove', {
                          name: nameOf(edge.to.blockId),
                        })}
                        onClick={() => api.getState().edit((doc) => deleteEdges(doc, [edge.id]))}
                        className="rounded p-1 text-muted-foreground outline-none hover:bg-muted hover:text-destructive focus-visible:ring-2 focus-visible:ring-ring/50"
                      >
                        <XIcon className="size-3.5" />
                      </button>
                    )}
                  </li>
                ))}
              </ul>
            )}
            {!readOnly && candidates.length > 0 && (
              <Select
                value=""
                onValueChange={(targetId) => {
                  const slot = output.slot
                  api
                    .getState()
                    .edit((doc) =>
                      slot
                        ? attach(doc, block.id, slot, targetId).doc
                        : connect(
                            doc,
                            { blockId: block.id, conditionId: output.conditionId },
                            targetId
                          ).doc
                    )
                }}
              >
                <SelectTrigger
                  size="sm"
                  className="w-full"
                  data-testid={`connect-select-${output.key}`}
                  aria-label={t('workflowEditor.connections.add', { output: output.label })}
                >
                  <SelectValue placeholder={t('workflowEditor.connections.addPlaceholder')} />
                </SelectTrigger>
                <SelectContent>
                  {candidates.map((candidate) => (
                    <SelectItem
                      key={candidate.id}
                      value={candidate.id}
                      data-testid="connect-option"
                      data-node-id={candidate.id}
                    >
                      {nameOf(candidate.id)}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            )}
          </div>
        )
      })}
    </section>
  )
}
