import { useContext, useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { CopyIcon, FlaskConicalIcon, PlusIcon, Trash2Icon, XIcon } from 'lucide-react'
import { omit } from '#shared/bot/graph'
import type { WorkflowBlock } from '#shared/workflow/types'
import { Button } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import { Textarea } from '~/components/ui/textarea'
import { Switch } from '~/components/ui/switch'
import { FieldHint, Label } from '~/components/ui/label'
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '~/components/ui/select'
import { ConfirmDialog } from '~/components/confirm_dialog'
import { BlockForm } from '~/features/plugin_form/block_form'
import { PluginForm } from '~/features/plugin_form/plugin_form'
import { formErrorsOf } from '~/features/plugin_form/issues'
import { PluginIcon } from '~/features/plugin_form/plugin_icon'
import { defaultsOfFields } from '~/features/plugin_form/values'
import type { FormCredentials, FormField } from '~/features/plugin_form/types'
import { jsonFetch } from '~/lib/http'
import { showToast } from '~/lib/toast'
import { cn } from '~/lib/utils'
import { useWorkflowEditor, useWorkflowEditorApi } from './workflow_editor_store'
import {
  addCondition,
  attach,
  connect,
  deleteCondition,
  deleteEdges,
  deleteNodes,
  duplicateNode,
  renameNode,
  setNodeDisabled,
  setNodeNotes,
  updateCondition,
  updateNodeOptions,
} from './workflow_editing'
import { isAttachable, isTrigger, useWorkflowPlugin, useWorkflowPlugins } from './workflow_plugins'
import { conditionSummary } from './node_summary'
import { NodeUrl } from './node_url'
import { useWorkflowExpressionScope } from './expression_scope'
import { ExpressionScopeContext } from '~/features/plugin_form/expressions'
import { NodeRunData } from './node_run_data'
import { insertIntoField, isTextField, type TextField } from './node_references'
import { isSettled, WorkflowRunContext } from './use_workflow_run'
import type { AttachmentSlot, WorkflowEditorPlugin } from './types'

/**
 * The settings of the open node, in a panel over the right of the canvas: its name and
 * switch, the form generated from its plugin's declaration (or the plugin's own form),
 * its branches, and its connections (a keyboard way to draw edges).
 */
export function NodeSettings({ workspaceId, appUrl }: { workspaceId?: string; appUrl?: string }) {
  const { t } = useTranslation()
  const api = useWorkflowEditorApi()
  const openNodeId = useWorkflowEditor((state) => state.openNodeId)
  const block = useWorkflowEditor((state) =>
    state.openNodeId
      ? state.history.present.blocks.find((candidate) => candidate.id === state.openNodeId)
      : undefined
  )
  const readOnly = useWorkflowEditor((state) => state.readOnly)
  const workflowId = useWorkflowEditor((state) => state.workflowId)
  const plugin = useWorkflowPlugin(block?.type ?? '')
  const plugins = useWorkflowPlugins()
  const panelRef = useRef<HTMLElement>(null)
  const lastField = useRef<TextField | null>(null)
  const [confirmDelete, setConfirmDelete] = useState(false)
  // What `{{` completes in every field of the node: variables, run data, earlier nodes.
  const scope = useWorkflowExpressionScope(openNodeId ?? '')
  const runControls = useContext(WorkflowRunContext)
  const run = useWorkflowEditor((state) => state.run)

  // The node went away (deleted, undone): close.
  useEffect(() => {
    if (openNodeId && !block) api.getState().openNode(null)
  }, [openNodeId, block, api])

  useEffect(() => {
    if (openNodeId) panelRef.current?.focus()
  }, [openNodeId])

  if (!block) return null
  const close = () => api.getState().openNode(null)
  const edit = api.getState().edit
  const name = block.title || plugin?.name || block.type
  const trigger = isTrigger(plugin)
  // Two columns on wide screens once there is data to map from: data, then settings.
  const wide = run !== null || (trigger && block.pinnedData !== undefined)
  const running = run !== null && !isSettled(run.status)
  const nameOf = (other: WorkflowBlock) =>
    other.title || plugins.get(other.type)?.name || other.type
  /** A key picked in the data panes (Enter, click) goes into the field last focused. */
  const pick = (expression: string) => {
    const field = lastField.current
    if (field && field.isConnected) insertIntoField(field, expression)
    else showToast('info', t('nodeData.pickField'), expression)
  }

  return (
    <aside
      ref={panelRef}
      tabIndex={-1}
      data-testid="node-settings"
      data-node-id={block.id}
      aria-label={t('workflowEditor.settings.label', { name })}
      onKeyDown={(event) => {
        if (event.key === 'Escape') close()
      }}
      data-wide={wide || undefined}
      className={cn(
        'absolute top-3 right-3 bottom-3 z-10 flex w-96 max-w-[calc(100%-1.5rem)] flex-col rounded-xl border bg-card shadow-lg outline-none',
        // A phone gets the panel as a sheet over the whole canvas.
        'max-sm:inset-0 max-sm:w-full max-sm:max-w-full max-sm:rounded-none max-sm:border-0',
        wide && 'lg:w-[52rem]'
      )}
    >
      <header className="flex items-center gap-2 border-b px-4 py-3">
        <PluginIcon id={block.type} icon={plugin?.icon} className="size-4 text-primary" />
        <h2 className="min-w-0 flex-1 truncate text-sm font-semibold">
          {plugin?.name ?? block.type}
        </h2>
        <button
          type="button"
          data-testid="node-settings-close"
          aria-label={t('common.close')}
          onClick={close}
          className="rounded-md p-1 text-muted-foreground outline-none hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring/50"
        >
          <XIcon className="size-4" />
        </button>
      </header>
      <ExpressionScopeContext.Provider value={scope}>
        <div
          className={cn(
            'min-h-0 flex-1 overflow-y-auto',
            wide && 'lg:grid lg:grid-cols-2 lg:overflow-hidden'
          )}
        >
          {!isAttachable(plugin) && (
            <div className={cn('border-b', wide && 'lg:overflow-y-auto lg:border-r lg:border-b-0')}>
              <NodeRunData
                block={block}
                trigger={trigger}
                readOnly={readOnly}
                onPick={pick}
                nameOf={nameOf}
              />
            </div>
          )}
          <div
            className={cn('grid content-start gap-6 p-4', wide && 'lg:overflow-y-auto')}
            onFocus={(event) => {
              if (isTextField(event.target)) lastField.current = event.target
            }}
          >
            <NodeIdentity key={block.id} block={block} plugin={plugin} readOnly={readOnly} />
            {plugin?.url && appUrl !== undefined && (
              <NodeUrl url={plugin.url} block={block} appUrl={appUrl} workflowId={workflowId} />
            )}
            {plugin ? (
              <NodeForm
                key={`form-${block.id}`}
                block={block}
                plugin={plugin}
                readOnly={readOnly}
                workspaceId={workspaceId}
              />
            ) : (
              <p className="text-sm text-muted-foreground">
                {t('workflowEditor.node.unknownType')}
              </p>
            )}
            {plugin?.form.items && (
              <BranchesEditor block={block} plugin={plugin} readOnly={readOnly} />
            )}
            <Connections block={block} plugin={plugin} readOnly={readOnly} />
          </div>
        </div>
      </ExpressionScopeContext.Provider>
      {!readOnly && (
        <footer className="flex flex-wrap items-center justify-between gap-2 border-t px-4 py-3">
          {runControls?.available && !isAttachable(plugin) && (
            <Button
              variant="outline"
              size="sm"
              data-testid="node-test-step"
              disabled={runControls.starting || running}
              title={t('nodeData.testStepHint')}
              onClick={() => void runControls.start({}, { nodeId: block.id })}
            >
              <FlaskConicalIcon aria-hidden /> {t('nodeData.testStep')}
            </Button>
          )}
          <Button
            variant="outline"
            size="sm"
            data-testid="node-settings-duplicate"
            onClick={() => {
              let copyId: string | undefined
              edit((doc) => {
                const result = duplicateNode(doc, block.id)
                copyId = result.blockId
                return result.doc
              })
              if (copyId) api.getState().openNode(copyId)
            }}
          >
            <CopyIcon /> {t('workflowEditor.node.duplicate')}
          </Button>
          <Button
            variant="outline"
            size="sm"
            data-testid="node-settings-delete"
            className="text-destructive hover:text-destructive"
            onClick={() => setConfirmDelete(true)}
          >
            <Trash2Icon /> {t('workflowEditor.node.delete')}
          </Button>
        </footer>
      )}
      <ConfirmDialog
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title={t('workflowEditor.node.deleteTitle', { name })}
        description={t('workflowEditor.node.deleteDescription')}
        confirmLabel={t('workflowEditor.node.delete')}
        onConfirm={() => edit((doc) => deleteNodes(doc, [block.id]))}
      />
    </aside>
  )
}

function NodeIdentity({
  block,
  plugin,
  readOnly,
}: {
  block: WorkflowBlock
  plugin: WorkflowEditorPlugin | undefined
  readOnly: boolean
}) {
  const { t } = useTranslation()
  const id = useId()
  const api = useWorkflowEditorApi()
  const [title, setTitle] = useState(block.title ?? '')
  useEffect(() => setTitle(block.title ?? ''), [block.title])
  const commit = () => api.getState().edit((doc) => renameNode(doc, block.id, title))
  const [notes, setNotes] = useState(block.notes ?? '')
  useEffect(() => setNotes(block.notes ?? ''), [block.notes])

  return (
    <div className="grid gap-4">
      <div className="grid gap-2">
        <Label htmlFor={`${id}-title`}>{t('workflowEditor.settings.name')}</Label>
        <Input
          id={`${id}-title`}
          data-testid="node-title-input"
          value={title}
          maxLength={200}
          readOnly={readOnly}
          placeholder={plugin?.name ?? block.type}
          onChange={(event) => setTitle(event.target.value)}
          onBlur={commit}
          onKeyDown={(event) => {
            if (event.key === 'Enter') event.currentTarget.blur()
          }}
        />
      </div>
      <div className="flex items-center gap-3">
        <Switch
          id={`${id}-enabled`}
          data-testid="node-enabled"
          checked={!block.isDisabled}
          disabled={readOnly}
          onCheckedChange={(checked) =>
            api.getState().edit((doc) => setNodeDisabled(doc, block.id, !checked))
          }
        />
        <Label htmlFor={`${id}-enabled`}>{t('workflowEditor.settings.enabled')}</Label>
      </div>
      {block.isDisabled && <FieldHint>{t('workflowEditor.settings.disabledHint')}</FieldHint>}
      <div className="grid gap-2">
        <Label htmlFor={`${id}-notes`}>{t('workflowEditor.settings.notes')}</Label>
        <Textarea
          id={`${id}-notes`}
          data-testid="node-notes"
          rows={2}
          value={notes}
          readOnly={readOnly}
          placeholder={t('workflowEditor.settings.notesPlaceholder')}
          onChange={(event) => setNotes(event.target.value)}
          onBlur={() => api.getState().edit((doc) => setNodeNotes(doc, block.id, notes))}
        />
      </div>
    </div>
  )
}

function hasCredentialsField(fields: readonly FormField[]): boolean {
  return fields.some(
    (field) =>
      field.kind === 'credentials' ||
      (field.fields ? hasCredentialsField(field.fields) : false) ||
      (field.itemFields ? hasCredentialsField(field.itemFields) : false)
  )
}

/** The workspace's credentials records (names only), fetched when a form asks for one. */
function useCredentials(workspaceId: string | undefined, needed: boolean) {
  const [records, setRecords] = useState<FormCredentials[]>([])
  useEffect(() => {
    if (!needed || !workspaceId) return
    const controller = new AbortController()
    jsonFetch<{ credentials: FormCredentials[] }>(`/api/v1/workspaces/${workspaceId}/credentials`, {
      signal: controller.signal,
    })
      .then((answer) => setRecords(answer.credentials ?? []))
      // The picker then offers none, with its link to add some: nothing to report here.
      .catch(() => {})
    return () => controller.abort()
  }, [workspaceId, needed])
  return records
}

function NodeForm({
  block,
  plugin,
  readOnly,
  workspaceId,
}: {
  block: WorkflowBlock
  plugin: WorkflowEditorPlugin
  readOnly: boolean
  workspaceId?: string
}) {
  const { t } = useTranslation()
  const id = useId()
  const api = useWorkflowEditorApi()
  const variables = useWorkflowEditor((state) => state.history.present.variables)
  const form = plugin.form
  const value = block.options ?? {}
  const actions = form.actions ?? []
  const actionName = typeof value.action === 'string' ? value.action : undefined
  const action = actions.find((candidate) => candidate.name === actionName)
  const fields = action ? [...form.fields, ...action.fields] : form.fields
  const credentials = useCredentials(workspaceId, hasCredentialsField(fields))
  const issues = useWorkflowEditor((state) => state.issues[block.id])

  const change = (next: Record<string, unknown>) =>
    api
      .getState()
      .edit((doc) => updateNodeOptions(doc, block.id, next), { coalesceKey: `node:${block.id}` })

  if (actions.length === 0 && fields.length === 0) {
    // A node configured through its branches alone (a condition) has plenty to configure.
    if (form.items) return null
    return <p className="text-sm text-muted-foreground">{t('workflowEditor.settings.noOptions')}</p>
  }

  return (
    <div className="grid gap-6">
      {actions.length > 0 && (
        <div className="grid gap-2">
          <Label htmlFor={`${id}-action`}>{t('workflowEditor.settings.action')}</Label>
          <Select
            value={actionName ?? ''}
            disabled={readOnly}
            onValueChange={(name) => {
              const chosen = actions.find((candidate) => candidate.name === name)
              if (!chosen) return
              // Shared options stay; the previous action's own options go.
              const shared: Record<string, unknown> = {}
              for (const field of form.fields) {
                if (value[field.name] !== undefined) shared[field.name] = value[field.name]
              }
              change({ ...shared, ...defaultsOfFields(chosen.fields), action: name })
            }}
          >
            <SelectTrigger id={`${id}-action`} data-testid="node-action" className="w-full">
              <SelectValue placeholder={t('workflowEditor.settings.chooseAction')} />
            </SelectTrigger>
            <SelectContent>
              {actions.map((candidate) => (
                <SelectItem key={candidate.name} value={candidate.name}>
                  {candidate.label}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          {action?.description && <FieldHint>{action.description}</FieldHint>}
        </div>
      )}
      {fields.length > 0 && (
        <BlockForm
          slug={form.slug}
          fields={fields}
          value={value}
          onChange={change}
          readOnly={readOnly}
          variables={variables}
          credentials={credentials}
          idPrefix={`node-${block.id}`}
          testId="node-form"
          errors={formErrorsOf(issues)}
        />
      )}
    </div>
  )
}

function BranchesEditor({
  block,
  plugin,
  readOnly,
}: {
  block: WorkflowBlock
  plugin: WorkflowEditorPlugin
  readOnly: boolean
}) {
  const { t } = useTranslation()
  const api = useWorkflowEditorApi()
  const variables = useWorkflowEditor((state) => state.history.present.variables)
  const [refused, setRefused] = useState(false)
  const itemsForm = plugin.form.items!
  const conditions = block.conditions ?? []
  const min = Math.max(1, itemsForm.min ?? 1)
  const atMax = itemsForm.max !== undefined && conditions.length >= itemsForm.max
  const edit = api.getState().edit

  return (
    <section className="grid gap-3" data-testid="branches-editor">
      <div>
        <h3 className="text-sm font-semibold">{t('workflowEditor.branches.title')}</h3>
        <FieldHint>{t('workflowEditor.branches.hint')}</FieldHint>
      </div>
      <ol className="grid gap-3">
        {conditions.map((condition, index) => {
          const value = omit(condition, 'id')
          return (
            <li
              key={condition.id}
              className="grid gap-2 rounded-lg border p-3"
              data-testid="branch-editor"
              data-condition-id={condition.id}
            >
              <div className="flex items-center justify-between">
                <span className="text-xs font-medium text-muted-foreground">
                  {t('workflowEditor.node.branch', { number: index + 1 })}
                </span>
                {!readOnly && (
                  <button
                    type="button"
                    data-testid="branch-delete"
                    aria-label={t('workflowEditor.branches.delete', { number: index + 1 })}
                    aria-disabled={conditions.length <= min || undefined}
                    onClick={() => {
                      let wasRefused = false
                      edit((doc) => {
                        const result = deleteCondition(doc, block.id, condition.id, min)
                        wasRefused = !!result.refused
                        return result.doc
                      })
                      setRefused(wasRefused)
                    }}
                    className="rounded p-1 text-muted-foreground outline-none hover:bg-muted hover:text-destructive focus-visible:ring-2 focus-visible:ring-ring/50 aria-disabled:opacity-50"
                  >
                    <Trash2Icon className="size-3.5" />
                  </button>
                )}
              </div>
              <PluginForm
                fields={itemsForm.fields}
                value={value}
                readOnly={readOnly}
                variables={variables}
                idPrefix={`branch-${condition.id}`}
                onChange={(next) =>
                  edit((doc) => updateCondition(doc, block.id, condition.id, next), {
                    coalesceKey: `branch:${condition.id}`,
                  })
                }
              />
            </li>
          )
        })}
      </ol>
      {refused && (
        <p role="alert" data-testid="branch-refusal" className="text-sm text-destructive">
          {t('workflowEditor.branches.lastBranch')}
        </p>
      )}
      {!readOnly && !atMax && (
        <Button
          type="button"
          variant="outline"
          size="sm"
          data-testid="branch-add"
          onClick={() => {
            setRefused(false)
            edit(
              (doc) =>
                addCondition(doc, block.id, defaultsOfFields(itemsForm.fields), itemsForm.max).doc
            )
          }}
        >
          <PlusIcon /> {t('workflowEditor.branches.add')}
        </Button>
      )}
    </section>
  )
}

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
function Connections({
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
