import { useEffect, useRef, useState } from 'react'
import { router } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { PLAN_LABELS } from '#shared/plans'
import { usePageProps } from '~/hooks/use_shared_props'
import { Input } from '~/components/ui/input'
import { FieldError, FieldHint, Label } from '~/components/ui/label'
import { Button } from '~/components/ui/button'
import { Badge } from '~/components/ui/badge'
import { ConfirmDialog } from '~/components/confirm_dialog'
import { EmptyState } from '~/components/empty_state'
import { WorkspaceIcon } from '~/features/shell/workspace_icon'
import { SettingsSection } from './settings_section'

export function WorkspaceTab() {
  const { t } = useTranslation()
  const { currentWorkspace, workspaces, errors } = usePageProps()
  const [name, setName] = useState(currentWorkspace?.name ?? '')
  const [icon, setIcon] = useState(currentWorkspace?.icon ?? '')
  const saving = useRef(false)

  // Another workspace became current (switch, delete): show its values.
  useEffect(() => {
    setName(currentWorkspace?.name ?? '')
    setIcon(currentWorkspace?.icon ?? '')
  }, [currentWorkspace?.id, currentWorkspace?.name, currentWorkspace?.icon])

  if (!currentWorkspace) {
    return (
      <EmptyState
        title={t('settings.workspace.noneTitle')}
        description={t('settings.workspace.noneDescription')}
      />
    )
  }

  const workspace = currentWorkspace
  const isAdmin = workspace.role === 'ADMIN'
  const canDelete = isAdmin && workspaces.length >= 2
  const dirty = name.trim() !== workspace.name || (icon.trim() || null) !== (workspace.icon || null)

  function save() {
    if (!isAdmin || !dirty || saving.current) return
    if (!name.trim()) {
      setName(workspace.name)
      return
    }
    saving.current = true
    router.patch(
      `/workspaces/${workspace.id}`,
      { name: name.trim(), icon: icon.trim() || null },
      {
        preserveScroll: true,
        preserveState: true,
        onFinish: () => {
          saving.current = false
        },
      }
    )
  }

  return (
    <div className="grid gap-6">
      <SettingsSection
        title={t('settings.workspace.generalTitle')}
        description={isAdmin ? undefined : t('settings.workspace.readOnly')}
      >
        <form
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault()
            save()
          }}
          noValidate
        >
          <div className="grid gap-2">
            <Label htmlFor="workspace-name">{t('settings.workspace.nameLabel')}</Label>
            <Input
              id="workspace-name"
              data-testid="workspace-name"
              value={name}
              maxLength={100}
              disabled={!isAdmin}
              onChange={(e) => setName(e.target.value)}
              onBlur={save}
              aria-invalid={!!errors?.name}
              aria-describedby={errors?.name ? 'workspace-name-error' : undefined}
            />
            <FieldError id="workspace-name-error">{errors?.name}</FieldError>
          </div>
          <div className="grid gap-2">
            <Label htmlFor="workspace-icon">{t('settings.workspace.iconLabel')}</Label>
            <div className="flex items-center gap-3">
              <WorkspaceIcon
                icon={icon || null}
                name={name || workspace.name}
                className="size-9 text-base"
              />
              <Input
                id="workspace-icon"
                data-testid="workspace-icon"
                value={icon}
                maxLength={1024}
                disabled={!isAdmin}
                placeholder={t('settings.workspace.iconPlaceholder')}
                onChange={(e) => setIcon(e.target.value)}
                onBlur={save}
                className="max-w-xs"
                aria-describedby="workspace-icon-hint"
              />
            </div>
            {errors?.icon ? (
              <FieldError>{errors.icon}</FieldError>
            ) : (
              <FieldHint id="workspace-icon-hint">{t('settings.workspace.iconHint')}</FieldHint>
            )}
          </div>
          <div className="flex flex-wrap items-center gap-3">
            {isAdmin && (
              <Button type="submit" size="sm" disabled={!dirty} data-testid="workspace-save">
                {t('common.save')}
              </Button>
            )}
            <span className="flex items-center gap-2 text-sm text-muted-foreground">
              {t('settings.workspace.planLabel')}
              <Badge variant="secondary">{PLAN_LABELS[workspace.plan] ?? workspace.plan}</Badge>
              {t('settings.workspace.yourRole')}
              <Badge variant="outline">{t(`roles.${workspace.role}`)}</Badge>
            </span>
          </div>
        </form>
      </SettingsSection>

      <SettingsSection
        tone="danger"
        title={t('settings.workspace.dangerTitle')}
        description={t('settings.workspace.deleteDescription')}
        testId="danger-zone"
      >
        <div className="flex flex-wrap items-center gap-3">
          <ConfirmDialog
            trigger={
              <Button
                variant="destructive"
                size="sm"
                disabled={!canDelete}
                data-testid="delete-workspace"
                aria-describedby="delete-workspace-hint"
              >
                {t('settings.workspace.delete')}
              </Button>
            }
            title={t('settings.workspace.deleteConfirmTitle', { name: workspace.name })}
            description={t('settings.workspace.deleteConfirmDescription')}
            confirmLabel={t('settings.workspace.delete')}
            onConfirm={() => router.delete(`/workspaces/${workspace.id}`)}
          />
          {!canDelete && (
            <p
              id="delete-workspace-hint"
              className="text-sm text-muted-foreground"
              data-testid="delete-workspace-hint"
            >
              {!isAdmin
                ? t('settings.workspace.deleteAdminOnly')
                : t('settings.workspace.deleteNeedsTwo')}
            </p>
          )}
        </div>
      </SettingsSection>
    </div>
  )
}
