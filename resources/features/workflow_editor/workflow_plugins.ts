import { createContext, useContext } from 'react'
import type { WorkflowEditorPluginDto } from '#shared/workflow/dto'
import { clientDeclaration } from '~/lib/plugin_registry'
import { defaultsOfFields, isRecord } from '~/features/plugin_form/values'
import { pluginText } from './plugin_locales'
import { translateForm } from '~/features/plugin_form/translated_form'
import type { AttachmentSlot, ExposedUrl, WorkflowEditorPlugin } from './types'

/** The node types of this editor by id (static for the page). */
export const WorkflowPluginsContext = createContext<ReadonlyMap<string, WorkflowEditorPlugin>>(
  new Map()
)

export function useWorkflowPlugin(id: string): WorkflowEditorPlugin | undefined {
  return useContext(WorkflowPluginsContext).get(id)
}

export function useWorkflowPlugins(): ReadonlyMap<string, WorkflowEditorPlugin> {
  return useContext(WorkflowPluginsContext)
}

/** The MIME type of a node type dragged from the palette (its plugin id). */
export const NEW_NODE_MIME = 'application/x-flowcraft-new-node'

function readSlots(pluginId: string, declared: unknown): AttachmentSlot[] {
  if (!Array.isArray(declared)) return []
  return declared.flatMap((entry): AttachmentSlot[] => {
    if (!isRecord(entry) || typeof entry.name !== 'string' || entry.name === '') return []
    const accepts = Array.isArray(entry.accepts)
      ? entry.accepts.filter((value): value is string => typeof value === 'string')
      : // Without a list, a slot takes the category it is named after (model, tools).
        [entry.name === 'tools' ? 'tool' : entry.name]
    return [
      {
        name: entry.name,
        label: pluginText(
          pluginId,
          `attachments.${entry.name}.label`,
          typeof entry.label === 'string' ? entry.label : entry.name
        ),
        accepts,
        multiple: entry.multiple === true,
        required: entry.required === true,
      },
    ]
  })
}

const URL_KINDS: readonly string[] = ['webhook', 'event', 'resume']

function readUrl(pluginId: string, declared: unknown): ExposedUrl | undefined {
  if (!isRecord(declared) || !URL_KINDS.includes(declared.kind as string)) return undefined
  const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined)
  const hint = text(declared.hint)
  return {
    kind: declared.kind as ExposedUrl['kind'],
    hint: hint ? pluginText(pluginId, 'url.hint', hint) : undefined,
    showIf: isRecord(declared.showIf) ? (declared.showIf as ExposedUrl['showIf']) : undefined,
    methodOption: text(declared.methodOption),
    secretOption: text(declared.secretOption),
    secretHeader: text(declared.secretHeader),
  }
}

/**
 * The server's node types completed with what only the manifest holds (read from the
 * browser's copy of the registry): the branches a fresh condition node starts with and
 * the attachment slots of agent nodes, the URL a node is called at. Texts of the manifest
 * are in the builder's language (plugin_locales.ts): call it again once those are loaded.
 */
export function toEditorPlugins(plugins: WorkflowEditorPluginDto[]): WorkflowEditorPlugin[] {
  return plugins.map((plugin) => {
    const declaration = clientDeclaration(plugin.id) as
      | ({ items?: { defaultItems?: readonly Record<string, unknown>[] } } & Record<
          string,
          unknown
        >)
      | undefined
    const declaredItems = declaration?.items?.defaultItems
    let defaultConditions: Record<string, unknown>[] = []
    if (declaredItems && declaredItems.length > 0) {
      defaultConditions = declaredItems.map((item) => structuredClone(item))
    } else if (plugin.form.items) {
      // A node with branches starts with as many as it must keep (at least one).
      const count = Math.max(1, plugin.form.items.min ?? 1)
      defaultConditions = Array.from({ length: count }, () =>
        defaultsOfFields(plugin.form.items!.fields)
      )
    }
    return {
      ...plugin,
      name: pluginText(plugin.id, 'name', plugin.name),
      form: translateForm(plugin.id, plugin.form),
      defaultConditions,
      attachments: readSlots(
        plugin.id,
        (plugin as { attachments?: unknown }).attachments ?? declaration?.attachments
      ),
      url: readUrl(plugin.id, declaration?.exposesUrl),
      outputSchema: declaration?.outputSchema as WorkflowEditorPlugin['outputSchema'],
    }
  })
}

/** Model and tool nodes plug into agents; they are not steps of the flow. */
export function isAttachable(plugin: Pick<WorkflowEditorPlugin, 'category'> | undefined) {
  return plugin?.category === 'model' || plugin?.category === 'tool'
}

export function isTrigger(plugin: Pick<WorkflowEditorPlugin, 'category'> | undefined) {
  return plugin?.category === 'trigger'
}
