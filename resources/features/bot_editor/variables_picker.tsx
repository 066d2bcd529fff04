import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { CheckIcon, PencilIcon, PlusIcon, Trash2Icon, XIcon } from 'lucide-react'
import {
  createVariable,
  removeVariable,
  renameVariable,
  sanitizeVariableName,
  suggestVariables,
  variableToCreate,
} from '#shared/bot/editing'
import { Input } from '~/components/ui/input'
import { Label } from '~/components/ui/label'
import { useBotEditor, useBotEditorApi } from './bot_editor_store'

const iconButton =
  'rounded p-1 text-muted-foreground outline-none hover:bg-muted hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring/50'

/**
 * The variable picker (spec 01 section 4): suggestions while typing, a create entry for a
 * name no variable has yet (id 'v' + new id, session variable), inline rename and removal.
 * Variable fields of the block form then list the new variable.
 */
export function VariablesPicker({ readOnly }: { readOnly: boolean }) {
  const { t } = useTranslation()
  const id = useId()
  const api = useBotEditorApi()
  const variables = useBotEditor((state) => state.history.present.variables)
  const [query, setQuery] = useState('')
  const [focused, setFocused] = useState(false)
  const [renaming, setRenaming] = useState<{ id: string; name: string } | null>(null)
  const suggestions = suggestVariables(variables, query)
  const toCreate = readOnly ? undefined : variableToCreate(variables, query)

  function create() {
    if (!toCreate) return
    api.getState().edit((bot) => createVariable(bot, toCreate).bot)
    setQuery('')
  }

  return (
    <section className="grid gap-2" data-testid="variables-picker">
      <Label htmlFor={`${id}-query`}>{t('editor.variables.title')}</Label>
      <Input
        id={`${id}-query`}
        data-testid="variable-search"
        value={query}
        maxLength={255}
        placeholder={t('editor.variables.placeholder')}
        onFocus={() => setFocused(true)}
        onBlur={() => setFocused(false)}
        onChange={(event) => setQuery(sanitizeVariableName(event.target.value))}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault()
            create()
          }
        }}
      />
      {(focused || query || renaming) && (
        <ul className="grid max-h-48 gap-0.5 overflow-y-auto rounded-md border p-1 text-sm">
          {toCreate && (
            <li>
              <button
                type="button"
                data-testid="variable-create"
                onMouseDown={(event) => event.preventDefault()}
                onClick={create}
                className="flex w-full items-center gap-2 rounded px-2 py-1 text-left outline-none hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring/50"
              >
                <PlusIcon className="size-3.5" /> {t('editor.variables.create', { name: toCreate })}
              </button>
            </li>
          )}
          {suggestions.length === 0 && !toCreate && (
            <li className="px-2 py-1 text-muted-foreground">{t('editor.variables.empty')}</li>
          )}
          {suggestions.map((variable) => (
            <li key={variable.id} className="flex items-center gap-1 px-1">
              {renaming?.id === variable.id ? (
                <>
                  <Input
                    autoFocus
                    aria-label={t('editor.variables.rename')}
                    className="h-7 flex-1"
                    value={renaming.name}
                    maxLength={255}
                    onChange={(event) =>
                      setRenaming({
                        id: variable.id,
                        name: sanitizeVariableName(event.target.value),
                      })
                    }
                  />
                  <button
                    type="button"
                    className={iconButton}
                    aria-label={t('common.save')}
                    onMouseDown={(event) => event.preventDefault()}
                    onClick={() => {
                      api.getState().edit((bot) => renameVariable(bot, variable.id, renaming.name))
                      setRenaming(null)
                    }}
                  >
                    <CheckIcon className="size-3.5" />
                  </button>
                  <button
                    type="button"
                    className={iconButton}
                    aria-label={t('common.cancel')}
                    onMouseDown={(event) => event.preventDefault()}
                    onClick={() => setRenaming(null)}
                  >
                    <XIcon className="size-3.5" />
                  </button>
                </>
              ) : (
                <>
                  <span className="min-w-0 flex-1 truncate py-1">{variable.name}</span>
                  {!readOnly && (
                    <>
                      <button
                        type="button"
                        className={iconButton}
                        aria-label={t('editor.variables.rename')}
                        onMouseDown={(event) => event.preventDefault()}
                        onClick={() => setRenaming({ id: variable.id, name: variable.name })}
                      >
                        <PencilIcon className="size-3.5" />
                      </button>
                      <button
                        type="button"
                        className={iconButton}
                        aria-label={t('editor.variables.remove')}
                        onMouseDown={(event) => event.preventDefault()}
                        onClick={() =>
                          api.getState().edit((bot) => removeVariable(bot, variable.id))
                        }
                      >
                        <Trash2Icon className="size-3.5" />
                      </button>
                    </>
                  )}
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
