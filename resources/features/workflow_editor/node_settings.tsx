import { useCallback, useContext, useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { CopyIcon, FlaskConicalIcon, Trash2Icon } from 'lucide-react'
import { omit } from '#shared/bot/graph'
import type { WorkflowBlock } from '#shared/workflow/types'
import { Button } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import { Textarea } from '~/components/ui/textarea'
import { Switch } from '~/components/ui/switch'
import { FieldHint, Label } from '~/components/ui/label'
import { ConfirmDialog } from '~/components/confirm_dialog'
import { defaultsOfFields } from '~/features/plugin_form/values'
import {
  formOfAction,
  PluginSettingsForm,
  SettingsPanel,
  useSettingsPanel,
} from '~/features/editor_shell/item_settings'
import { ItemsSection } from '~/features/editor_shell/items_section'
import { showToast } from '~/lib/toast'
import { cn } from '~/lib/utils'
import { useWorkflowEditor, useWorkflowEditorApi } from './workflow_editor_store'
import {
  addCondition,
  deleteCondition,
  deleteNodes,
  duplicateNode,
  renameNode,
  setNodeDisabled,
  setNodeNotes,
  updateCondition,
  updateNodeOptions,
} from './workflow_editing'
import { isAttachable, isTrigger, useWorkflowPlugin, useWorkflowPlugins } from './workflow_plugins'
import { NodeUrl } from './node_url'
import { useWorkflowExpressionScope } from './expression_scope'
import { ExpressionScopeContext } from '~/features/plugin_form/expressions'
import { NodeRunData } from './node_run_data'
import { Connections } from './node_connections'
import { insertIntoField, isTextField, type TextField } from './node_references'
import { isSettled, WorkflowRunContext } from './use_workflow_run'
import type { WorkflowEditorPlugin } from './types'

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
  const close = useCallback(() => api.getState().openNode(null), [api])
  const variables = useWorkflowEditor((state) => state.history.present.variables)
  const panel = useSettingsPanel(
    { surface: 'workflow', workspaceId, readOnly, variables },
    openNodeId,
    !!block,
    close
  )
  const lastField = useRef<TextField | null>(null)
  const [confirmDelete, setConfirmDelete] = useState(false)
  // What `{{` completes in every field of the node: variables, run data, earlier nodes.
  const scope = useWorkflowExpressionScope(openNodeId ?? '')
  const runControls = useContext(WorkflowRunContext)
  const run = useWorkflowEditor((state) => state.run)

  if (!block) return null
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
    <SettingsPanel
      panel={panel}
      type={block.type}
      plugin={plugin}
      data-node-id={block.id}
      aria-label={t('workflowEditor.settings.label', { name })}
      data-wide={wide || undefined}
      className={cn(
        // A phone gets the panel as a sheet over the whole canvas.
        'max-sm:inset-0 max-sm:w-full max-sm:max-w-full max-sm:rounded-none max-sm:border-0',
        wide && 'lg:w-[52rem]'
      )}
    >
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
              <NodeForm key={`form-${block.id}`} block={block} plugin={plugin} />
            ) : (
              <p className="text-sm text-muted-foreground">
                {t('workflowEditor.node.unknownType')}
              </p>
            )}
            {plugin?.form.items && <BranchesEditor block={block} plugin={plugin} />}
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
    </SettingsPanel>
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

function NodeForm({ block, plugin }: { block: WorkflowBlock; plugin: WorkflowEditorPlugin }) {
  const { t } = useTranslation()
  const api = useWorkflowEditorApi()
  const form = plugin.form
  const value = block.options ?? {}
  const { actions, fields } = formOfAction(form, value)
  const issues = useWorkflowEditor((state) => state.issues[block.id])

  const write = (next: Record<string, unknown>) =>
    api
      .getState()
      .edit((doc) => updateNodeOptions(doc, block.id, next), { coalesceKey: `node:${block.id}` })

  if (actions.length === 0 && fields.length === 0) {
    // A node configured through its branches alone (a condition) has plenty to configure.
    if (form.items) return null
    return <p className="text-sm text-muted-foreground">{t('workflowEditor.settings.noOptions')}</p>
  }

  return <PluginSettingsForm target={{ id: block.id, value, write, issues }} form={form} />
}

/** The condition's branches: the plugin's branch form for each, and the workflow's edits. */
function BranchesEditor({ block, plugin }: { block: WorkflowBlock; plugin: WorkflowEditorPlugin }) {
  const api = useWorkflowEditorApi()
  const itemsForm = plugin.form.items!
  const edit = api.getState().edit
  const min = Math.max(1, itemsForm.min ?? 1)
  const branches = (block.conditions ?? []).map((condition) => ({
    id: condition.id,
    value: omit(condition, 'id'),
  }))

  return (
    <ItemsSection
      form={itemsForm}
      items={branches}
      onChange={(id, next) =>
        edit((doc) => updateCondition(doc, block.id, id, next), { coalesceKey: `branch:${id}` })
      }
      onDelete={(id) => {
        let refused = false
        edit((doc) => {
          const result = deleteCondition(doc, block.id, id, min)
          refused = !!result.refused
          return result.doc
        })
        return { refused }
      }}
      onAdd={() =>
        edit(
          (doc) =>
            addCondition(doc, block.id, defaultsOfFields(itemsForm.fields), itemsForm.max).doc
        )
      }
    />
  )
}
