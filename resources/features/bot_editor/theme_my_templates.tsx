import { useEffect, useId, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { CheckIcon, PencilIcon, Trash2Icon, XIcon } from 'lucide-react'
import type { BotTheme } from '#shared/bot/types'
import { Button } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import { FieldError, Label } from '~/components/ui/label'
import { Skeleton } from '~/components/ui/skeleton'
import { ConfirmDialog } from '~/components/confirm_dialog'
import { jsonFetch } from '~/lib/http'
import { showToast } from '~/lib/toast'
import { useBotEditor, useBotEditorApi } from './bot_editor_store'
import { FieldGroup } from './editor_fields'
import { applyThemeTemplate, ThemeSwatchButton } from './theme_gallery'

/** A theme saved by the workspace (app/dtos/theme_template_dto.ts). */
export interface ThemeTemplate {
  id: string
  name: string
  theme: BotTheme
  workspaceId: string
  createdAt: string
  updatedAt: string
}

type Load =
  { status: 'loading' } | { status: 'error' } | { status: 'ready'; templates: ThemeTemplate[] }

function errorText(error: unknown) {
  return (error as { description?: string }).description ?? (error as Error).message
}

/** Theme tab, My templates: save the current theme under a name; apply, rename, delete. */
export function ThemeMyTemplates() {
  const { t } = useTranslation()
  const workspaceId = useBotEditor((state) => state.history.present.workspaceId)
  const readOnly = useBotEditor((state) => state.readOnly)
  const [load, setLoad] = useState<Load>({ status: 'loading' })

  useEffect(() => {
    if (readOnly || !workspaceId) return
    const controller = new AbortController()
    jsonFetch<{ themeTemplates: ThemeTemplate[] }>(
      `/api/workspaces/${workspaceId}/theme-templates`,
      { signal: controller.signal }
    )
      .then(({ themeTemplates }) => setLoad({ status: 'ready', templates: themeTemplates }))
      .catch((error) => {
        if (controller.signal.aborted) return
        setLoad({ status: 'error' })
        showToast('error', t('theme.myTemplates.fetchError'), errorText(error))
      })
    return () => controller.abort()
  }, [workspaceId, readOnly, t])

  if (readOnly || !workspaceId) {
    return (
      <FieldGroup title={t('theme.myTemplates.title')}>
        <p className="text-sm text-muted-foreground">{t('theme.myTemplates.readOnly')}</p>
      </FieldGroup>
    )
  }

  const templates = load.status === 'ready' ? load.templates : []
  const setTemplates = (update: (list: ThemeTemplate[]) => ThemeTemplate[]) =>
    setLoad((current) =>
      current.status === 'ready'
        ? { status: 'ready', templates: update(current.templates) }
        : current
    )

  return (
    <>
      <SaveTemplateForm
        workspaceId={workspaceId}
        onSaved={(template) => setTemplates((list) => [...list, template])}
      />
      <FieldGroup title={t('theme.myTemplates.title')} testId="my-templates">
        {load.status === 'loading' && (
          <div className="grid grid-cols-2 gap-3 sm:grid-cols-3" data-testid="my-templates-loading">
            {[0, 1, 2].map((index) => (
              <Skeleton key={index} className="h-32" />
            ))}
          </div>
        )}
        {load.status === 'error' && (
          <p className="text-sm text-destructive" role="alert">
            {t('theme.myTemplates.fetchError')}
          </p>
        )}
        {load.status === 'ready' && templates.length === 0 && (
          <p className="text-sm text-muted-foreground" data-testid="my-templates-empty">
            {t('theme.myTemplates.empty')}
          </p>
        )}
        {templates.length > 0 && (
          <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3">
            {templates.map((template) => (
              <TemplateCard key={template.id} template={template} setTemplates={setTemplates} />
            ))}
          </ul>
        )}
      </FieldGroup>
    </>
  )
}

function SaveTemplateForm({
  workspaceId,
  onSaved,
}: {
  workspaceId: string
  onSaved: (template: ThemeTemplate) => void
}) {
  const { t } = useTranslation()
  const api = useBotEditorApi()
  const id = useId()
  const [name, setName] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (busy) return
    if (!name.trim()) return setError(t('theme.myTemplates.nameRequired'))
    setBusy(true)
    setError(null)
    try {
      const { themeTemplate } = await jsonFetch<{ themeTemplate: ThemeTemplate }>(
        `/api/workspaces/${workspaceId}/theme-templates`,
        { method: 'POST', body: { name: name.trim(), theme: api.getState().history.present.theme } }
      )
      onSaved(themeTemplate)
      setName('')
      showToast('success', t('theme.myTemplates.saved'))
    } catch (caught) {
      setError(errorText(caught))
    } finally {
      setBusy(false)
    }
  }

  return (
    <FieldGroup
      title={t('theme.myTemplates.saveTitle')}
      description={t('theme.myTemplates.saveHint')}
    >
      <form className="grid gap-1.5" onSubmit={submit} noValidate>
        <Label htmlFor={id}>{t('theme.myTemplates.name')}</Label>
        <div className="flex gap-2">
          <Input
            id={id}
            data-testid="my-template-name"
            value={name}
            maxLength={100}
            placeholder={t('theme.myTemplates.namePlaceholder')}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            onChange={(event) => {
              setName(event.target.value)
              setError(null)
            }}
          />
          <Button type="submit" data-testid="my-template-save" disabled={busy}>
            {t('theme.myTemplates.save')}
          </Button>
        </div>
        <FieldError id={`${id}-error`}>{error}</FieldError>
      </form>
    </FieldGroup>
  )
}

function TemplateCard({
  template,
  setTemplates,
}: {
  template: ThemeTemplate
  setTemplates: (update: (list: ThemeTemplate[]) => ThemeTemplate[]) => void
}) {
  const { t } = useTranslation()
  const api = useBotEditorApi()
  const selected = useBotEditor(
    (state) => state.history.present.selectedThemeTemplateId === template.id
  )
  const [renaming, setRenaming] = useState<string | null>(null)
  const [confirmOpen, setConfirmOpen] = useState(false)

  const replace = (next: ThemeTemplate | null) =>
    setTemplates((list) =>
      next
        ? list.map((item) => (item.id === template.id ? next : item))
        : list.filter((item) => item.id !== template.id)
    )

  async function rename() {
    const name = renaming?.trim()
    setRenaming(null)
    if (!name || name === template.name) return
    // Optimistic: the old name comes back if the server refuses.
    replace({ ...template, name })
    try {
      await jsonFetch(`/api/theme-templates/${template.id}`, { method: 'PATCH', body: { name } })
    } catch (error) {
      replace(template)
      showToast('error', t('theme.myTemplates.renameError'), errorText(error))
    }
  }

  async function remove() {
    setTemplates((list) => list.filter((item) => item.id !== template.id))
    try {
      await jsonFetch(`/api/theme-templates/${template.id}`, { method: 'DELETE' })
      showToast('success', t('theme.myTemplates.deleted'))
    } catch (error) {
      setTemplates((list) => [...list, template])
      showToast('error', t('theme.myTemplates.deleteError'), errorText(error))
    }
  }

  return (
    <li className="grid gap-1.5" data-testid="my-template" data-template-id={template.id}>
      <ThemeSwatchButton
        theme={template.theme}
        label={template.name}
        selected={selected}
        testId="my-template-apply"
        onClick={() =>
          api.getState().edit((bot) => applyThemeTemplate(bot, template.id, template.theme), {
            coalesceKey: 'theme:template',
          })
        }
      />
      {renaming === null ? (
        <div className="flex justify-end gap-1">
          <Button
            variant="ghost"
            size="icon-sm"
            data-testid="my-template-rename"
            aria-label={t('theme.myTemplates.rename', { name: template.name })}
            onClick={() => setRenaming(template.name)}
          >
            <PencilIcon />
          </Button>
          <Button
            variant="ghost"
            size="icon-sm"
            data-testid="my-template-delete"
            aria-label={t('theme.myTemplates.delete', { name: template.name })}
            onClick={() => setConfirmOpen(true)}
          >
            <Trash2Icon />
          </Button>
        </div>
      ) : (
        <form
          className="flex items-center gap-1"
          onSubmit={(event) => {
            event.preventDefault()
            void rename()
          }}
        >
          <Input
            autoFocus
            data-testid="my-template-rename-input"
            aria-label={t('theme.myTemplates.name')}
            className="h-8"
            value={renaming}
            maxLength={100}
            onChange={(event) => setRenaming(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Escape') setRenaming(null)
            }}
          />
          <Button
            type="submit"
            variant="ghost"
            size="icon-sm"
            data-testid="my-template-rename-save"
            aria-label={t('common.save')}
          >
            <CheckIcon />
          </Button>
          <Button
            type="button"
            variant="ghost"
            size="icon-sm"
            aria-label={t('common.cancel')}
            onClick={() => setRenaming(null)}
          >
            <XIcon />
          </Button>
        </form>
      )}
      <ConfirmDialog
        open={confirmOpen}
        onOpenChange={setConfirmOpen}
        title={t('theme.myTemplates.deleteTitle', { name: template.name })}
        description={t('theme.myTemplates.deleteDescription')}
        confirmLabel={t('theme.myTemplates.deleteConfirm')}
        onConfirm={() => void remove()}
      />
    </li>
  )
}
