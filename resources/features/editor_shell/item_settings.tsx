import {
  createContext,
  useContext,
  useEffect,
  useId,
  useMemo,
  useRef,
  type ComponentProps,
  type ReactNode,
  type RefObject,
} from 'react'
import { useTranslation } from 'react-i18next'
import { XIcon } from 'lucide-react'
import { FieldHint, Label } from '~/components/ui/label'
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '~/components/ui/select'
import { BlockForm } from '~/features/plugin_form/block_form'
import { PluginIcon } from '~/features/plugin_form/plugin_icon'
import { formErrorsOf } from '~/features/plugin_form/issues'
import { defaultsOfFields } from '~/features/plugin_form/values'
import {
  hasCredentialsField,
  useWorkspaceCredentials,
} from '~/features/plugin_form/use_workspace_credentials'
import type { PluginFormProps } from '~/features/plugin_form/plugin_form'
import type { FormDescription } from '~/features/plugin_form/types'
import { cn } from '~/lib/utils'

/**
 * The settings panel of the open block (bot editor) or node (workflow editor): the frame,
 * and the action picker with the plugin's form; the repeated items (a bot block's items, a
 * node's branches) are in items_section.tsx. Each editor keeps what only it has (text
 * bubbles, connections, run data); the test ids and texts stay those of its surface, which
 * tests and docs name.
 */
export type EditorSurface = 'bot' | 'workflow'

const SURFACE = {
  bot: {
    prefix: 'block',
    action: 'editor.block.action',
    chooseAction: 'editor.block.chooseAction',
  },
  workflow: {
    prefix: 'node',
    action: 'workflowEditor.settings.action',
    chooseAction: 'workflowEditor.settings.chooseAction',
  },
} as const

/** What SettingsPanel is given by useSettingsPanel. */
export interface SettingsPanelState {
  /** The panel's element. */
  ref: RefObject<HTMLElement | null>
  /** What the panel lends the forms in it, its surface among them. */
  settings: SettingsSurface
  onClose: () => void
}

/**
 * The settings panel of a surface: its element, focused when a block or node opens (Escape
 * then closes it); the panel closes when what it shows goes away (deleted, undone). A hook
 * of the editor's, apart from SettingsPanel: that closing happens when there is no block
 * left to render a panel for. `surface` is what the editor lends the forms in the panel,
 * kept the same object while its parts are (the forms read it from a context).
 */
export function useSettingsPanel(
  surface: SettingsSurface,
  openId: string | null,
  present: boolean,
  close: () => void
): SettingsPanelState {
  const { surface: name, workspaceId, readOnly, variables, VariableField } = surface
  const settings = useMemo(
    () => ({ surface: name, workspaceId, readOnly, variables, VariableField }),
    [name, workspaceId, readOnly, variables, VariableField]
  )
  const ref = useRef<HTMLElement>(null)
  useEffect(() => {
    if (openId && !present) close()
  }, [openId, present, close])

  useEffect(() => {
    if (openId) ref.current?.focus()
  }, [openId])
  return { ref, settings, onClose: close }
}

/**
 * The panel over the right of the canvas, with the plugin's icon and name and a close
 * button; what is in it gets the surface's settings (SettingsSurfaceContext).
 */
export function SettingsPanel({
  panel,
  type,
  plugin,
  className,
  children,
  ...attributes
}: {
  panel: SettingsPanelState
  /** The block's or node's type: the icon's id, and the title of an unknown plugin. */
  type: string
  plugin: { icon?: string | null; name: string } | undefined
  className?: string
  children: ReactNode
} & Omit<ComponentProps<'aside'>, 'ref' | 'className' | 'children'>) {
  const { t } = useTranslation()
  const { ref, settings, onClose } = panel
  const testId = `${SURFACE[settings.surface].prefix}-settings`
  return (
    <aside
      ref={ref}
      tabIndex={-1}
      data-testid={testId}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onClose()
      }}
      className={cn(
        'absolute top-3 right-3 bottom-3 z-10 flex w-96 max-w-[calc(100%-1.5rem)] flex-col rounded-xl border bg-card shadow-lg outline-none',
        className
      )}
      {...attributes}
    >
      <header className="flex items-center gap-2 border-b px-4 py-3">
        <PluginIcon id={type} icon={plugin?.icon} className="size-4 text-primary" />
        <h2 className="min-w-0 flex-1 truncate text-sm font-semibold">{plugin?.name ?? type}</h2>
        <button
          type="button"
          data-testid={`${testId}-close`}
          aria-label={t('common.close')}
          onClick={onClose}
          className="rounded-md p-1 text-muted-foreground outline-none hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring/50"
        >
          <XIcon className="size-4" />
        </button>
      </header>
      <SettingsSurfaceContext.Provider value={settings}>{children}</SettingsSurfaceContext.Provider>
    </aside>
  )
}

type ActionForm = Pick<FormDescription, 'slug' | 'fields' | 'actions'>

/** The chosen action of a plugin with actions, and the fields the form shows for it. */
export function formOfAction(form: ActionForm, value: Record<string, unknown>) {
  const actions = form.actions ?? []
  const actionName = typeof value.action === 'string' ? value.action : undefined
  const action = actions.find((candidate) => candidate.name === actionName)
  const fields = action ? [...form.fields, ...action.fields] : form.fields
  return { actions, actionName, action, fields }
}

/**
 * What an editor lends the settings forms of its blocks or nodes, provided once around its
 * settings panel: the surface, its workspace (for credentials pickers), whether it is
 * read-only, its variables and, for bots, the variable picker.
 */
export interface SettingsSurface {
  surface: EditorSurface
  workspaceId: string | undefined
  readOnly: boolean
  variables: PluginFormProps['variables']
  VariableField?: PluginFormProps['VariableField']
}

const SettingsSurfaceContext = createContext<SettingsSurface | null>(null)

/** What the editor lends the forms of its settings panel (SettingsPanel provides it). */
export function useSettingsSurface(): SettingsSurface {
  const settings = useContext(SettingsSurfaceContext)
  if (!settings) throw new Error('The settings forms need a SettingsPanel around them')
  return settings
}

/** The block or node a settings form edits. */
export interface SettingsTarget {
  /** The block's or node's id, for the form's ids. */
  id: string
  value: Record<string, unknown>
  /** Writes the next options (the editor coalesces a form's edits). */
  write: (next: Record<string, unknown>) => void
  issues: Parameters<typeof formErrorsOf>[0]
}

/**
 * The action select of a plugin with actions, then its generated form (or the plugin's
 * own form.tsx when it ships one), then what the surface adds (`children`).
 */
export function PluginSettingsForm({
  target,
  form,
  wrapForm = (node) => node,
  children,
}: {
  target: SettingsTarget
  form: ActionForm
  /** Puts the form inside what the surface needs around it (a context provider). */
  wrapForm?: (form: ReactNode) => ReactNode
  children?: ReactNode
}) {
  const { t } = useTranslation()
  const id = useId()
  const { surface, workspaceId, readOnly, variables, VariableField } = useSettingsSurface()
  const { value, write: onChange } = target
  const { actions, actionName, action, fields } = formOfAction(form, value)
  // The workspace's credentials records, fetched once the shown fields have a picker.
  const credentials = useWorkspaceCredentials(workspaceId, hasCredentialsField(fields))
  const formProps = { readOnly, variables, VariableField, value, onChange, credentials }
  const texts = SURFACE[surface]
  return (
    <div className="grid gap-6">
      {actions.length > 0 && (
        <div className="grid gap-2">
          <Label htmlFor={`${id}-action`}>{t(texts.action)}</Label>
          <Select
            value={actionName ?? ''}
            disabled={formProps.readOnly}
            onValueChange={(name) => {
              const chosen = actions.find((candidate) => candidate.name === name)
              if (!chosen) return
              // Shared options stay; the previous action's own options go.
              const shared: Record<string, unknown> = {}
              for (const field of form.fields) {
                if (value[field.name] !== undefined) shared[field.name] = value[field.name]
              }
              formProps.onChange({ ...shared, ...defaultsOfFields(chosen.fields), action: name })
            }}
          >
            <SelectTrigger
              id={`${id}-action`}
              data-testid={`${texts.prefix}-action`}
              className="w-full"
            >
              <SelectValue placeholder={t(texts.chooseAction)} />
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
      {fields.length > 0 &&
        wrapForm(
          <BlockForm
            {...formProps}
            slug={form.slug}
            fields={fields}
            idPrefix={`${texts.prefix}-${target.id}`}
            testId={`${texts.prefix}-form`}
            errors={formErrorsOf(target.issues)}
          />
        )}
      {children}
    </div>
  )
}
