import { useEffect, useId, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { BracesIcon, PlusIcon, Trash2Icon } from 'lucide-react'
import type { WorkflowVariable } from '#shared/workflow/types'
import { sanitizeVariableName } from '#shared/bot/variable_names'
import { Button } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import { FieldError, FieldHint, Label } from '~/components/ui/label'
import { Popover, PopoverContent, PopoverTrigger } from '~/components/ui/popover'
import { ConfirmDialog } from '~/components/confirm_dialog'
import { useWorkflowEditor, useWorkflowEditorApi } from './workflow_editor_store'
import {
  addVariable,
  removeVariable,
  renameVariable,
  variableNameError,
  type VariableNameError,
} from './workflow_editing'

/** The workflow's variables: add, rename inline, remove (nodes read them as {{Name}}). */
export function VariablesPopover() {
  const { t } = useTranslation()
  const api = useWorkflowEditorApi()
  const variables = useWorkflowEditor((state) => state.history.present.variables)
  const readOnly = useWorkflowEditor((state) => state.readOnly)
  // Outside the popover: the confirmation takes the focus, which closes the popover.
  const [removing, setRemoving] = useState<WorkflowVariable | null>(null)
  return (
    <>
      <Popover>
        <PopoverTrigger asChild>
          <Button variant="ghost" size="sm" data-testid="variables-button">
            <BracesIcon />
            {/* Named by its text (count included), the title kept for readers when hidden. */}
            <span className="sr-only lg:not-sr-only">{t('workflowEditor.variables.title')}</span>
            <span className="text-xs text-muted-foreground">{variables.length}</span>
          </Button>
        </PopoverTrigger>
        <PopoverContent align="end" className="w-80" data-testid="variables-panel">
          <div className="grid gap-3">
            <div>
              <h3 className="text-sm font-semibold">{t('workflowEditor.variables.title')}</h3>
              <FieldHint>{t('workflowEditor.variables.hint', { example: '{{Name}}' })}</FieldHint>
            </div>
            {variables.length === 0 ? (
              <p className="text-sm text-muted-foreground" data-testid="variables-empty">
                {t('workflowEditor.variables.empty')}
              </p>
            ) : (
              <ul className="grid max-h-64 gap-2 overflow-y-auto pr-1">
                {variables.map((variable) => (
                  <VariableRow
                    key={variable.id}
                    variable={variable}
                    variables={variables}
                    readOnly={readOnly}
                    onRemove={() => setRemoving(variable)}
                  />
                ))}
              </ul>
            )}
            {!readOnly && <AddVariable variables={variables} />}
          </div>
        </PopoverContent>
      </Popover>
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => {
          if (!open) setRemoving(null)
        }}
        title={t('workflowEditor.variables.removeTitle', { name: removing?.name ?? '' })}
        description={t('workflowEditor.variables.removeDescription')}
        confirmLabel={t('workflowEditor.variables.removeConfirm')}
        onConfirm={() => {
          const id = removing?.id
          if (id) api.getState().edit((doc) => removeVariable(doc, id))
        }}
      />
    </>
  )
}

function useNameErrorText() {
  const { t } = useTranslation()
  return (error: VariableNameError | undefined) =>
    error ? t(`workflowEditor.variables.errors.${error}`) : undefined
}

function AddVariable({ variables }: { variables: readonly WorkflowVariable[] }) {
  const { t } = useTranslation()
  const id = useId()
  const api = useWorkflowEditorApi()
  const errorText = useNameErrorText()
  const [name, setName] = useState('')
  const [error, setError] = useState<VariableNameError | undefined>()

  function submit(event: FormEvent) {
    event.preventDefault()
    const problem = variableNameError(variables, name)
    setError(problem)
    if (problem) return
    api.getState().edit((doc) => addVariable(doc, name).doc)
    setName('')
  }

  return (
    <form onSubmit={submit} className="grid gap-2 border-t pt-3" noValidate>
      <Label htmlFor={id}>{t('workflowEditor.variables.new')}</Label>
      <div className="flex gap-2">
        <Input
          id={id}
          data-testid="variable-new-name"
          value={name}
          maxLength={255}
          placeholder={t('workflowEditor.variables.placeholder')}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => {
            setName(sanitizeVariableName(event.target.value))
            setError(undefined)
          }}
          className="h-8"
        />
        <Button type="submit" size="sm" data-testid="variable-add">
          <PlusIcon /> {t('workflowEditor.variables.add')}
        </Button>
      </div>
      <FieldError id={`${id}-error`}>{errorText(error)}</FieldError>
    </form>
  )
}

function VariableRow({
  variable,
  variables,
  readOnly,
  onRemove,
}: {
  variable: WorkflowVariable
  variables: readonly WorkflowVariable[]
  readOnly: boolean
  onRemove: () => void
}) {
  const { t } = useTranslation()
  const id = useId()
  const api = useWorkflowEditorApi()
  const errorText = useNameErrorText()
  const [name, setName] = useState(variable.name)
  const [error, setError] = useState<VariableNameError | undefined>()
  useEffect(() => setName(variable.name), [variable.name])

  function commit() {
    if (name === variable.name) return setError(undefined)
    const problem = variableNameError(variables, name, variable.id)
    setError(problem)
    if (!problem) api.getState().edit((doc) => renameVariable(doc, variable.id, name))
  }

  return (
    <li className="grid gap-1" data-testid="variable-row" data-variable-id={variable.id}>
      <div className="flex items-center gap-2">
        <Input
          id={id}
          data-testid="variable-name"
          aria-label={t('workflowEditor.variables.rename', { name: variable.name })}
          value={name}
          maxLength={255}
          readOnly={readOnly}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => setName(sanitizeVariableName(event.target.value))}
          onBlur={commit}
          onKeyDown={(event) => {
            if (event.key === 'Enter') event.currentTarget.blur()
            if (event.key === 'Escape') {
              event.stopPropagation()
              setName(variable.name)
              setError(undefined)
            }
          }}
          className="h-8"
        />
        {!readOnly && (
          <Button
            variant="ghost"
            size="icon-sm"
            data-testid="variable-remove"
            aria-label={t('workflowEditor.variables.remove', { name: variable.name })}
            onClick={onRemove}
          >
            <Trash2Icon />
          </Button>
        )}
      </div>
      <FieldError id={`${id}-error`}>{errorText(error)}</FieldError>
    </li>
  )
}
