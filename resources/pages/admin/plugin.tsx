import { useMemo, useState } from 'react'
import { Head, Link } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { ArrowLeftIcon, CircleCheckIcon, LoaderCircleIcon, RotateCcwIcon } from 'lucide-react'
import { AppLayout, PageHeader } from '~/features/shell/app_layout'
import { PluginForm } from '~/features/plugin_form/plugin_form'
import { BlockForm } from '~/features/plugin_form/block_form'
import { PluginIcon } from '~/features/plugin_form/plugin_icon'
import { defaultsOfFields } from '~/features/plugin_form/values'
import type { FormDescription, FormErrors, FormVariable } from '~/features/plugin_form/types'
import { Button } from '~/components/ui/button'
import { FieldError, FieldHint, Label } from '~/components/ui/label'
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '~/components/ui/select'
import { SettingsSection } from '~/features/settings/settings_section'
import { HttpError, jsonFetch } from '~/lib/http'
import { showToast } from '~/lib/toast'

interface Props {
  plugin: { id: string; name: string; description: string | null }
  form: FormDescription
  defaults: Record<string, unknown>
}

interface ValidationError {
  field: string
  message: string
}

/**
 * /admin/plugins/:id: a plugin's generated form as builders will see it in the editor,
 * with a check of the options against the validator the server derives.
 */
export default function AdminPlugin({ plugin, form, defaults }: Props) {
  const { t } = useTranslation()
  const [value, setValue] = useState<Record<string, unknown>>(() => structuredClone(defaults))
  const [item, setItem] = useState<Record<string, unknown>>(() =>
    defaultsOfFields(form.items?.fields ?? [])
  )
  const [errors, setErrors] = useState<ValidationError[]>([])
  const [status, setStatus] = useState<'idle' | 'validating' | 'valid' | 'invalid'>('idle')

  // A preview has no bot: one sample variable lets the variable selects be tried.
  const variables = useMemo<FormVariable[]>(
    () => [{ id: 'preview-variable', name: t('adminPlugins.sampleVariable') }],
    [t]
  )

  const actions = form.actions ?? []
  const actionName = typeof value.action === 'string' ? value.action : ''
  const action = actions.find((candidate) => candidate.name === actionName)
  const fields = useMemo(() => [...form.fields, ...(action?.fields ?? [])], [form.fields, action])
  const errorsByPath = useMemo(() => {
    const byPath: FormErrors = {}
    for (const error of errors) byPath[error.field] ??= error.message
    return byPath
  }, [errors])

  function change(next: Record<string, unknown>) {
    setValue(next)
    if (status === 'valid') setStatus('idle')
  }

  function chooseAction(name: string) {
    const chosen = actions.find((candidate) => candidate.name === name)
    // The action's defaults fill what the builder has not set yet.
    change({ ...defaultsOfFields(chosen?.fields ?? []), ...value, action: name })
  }

  function reset() {
    setValue(structuredClone(defaults))
    setItem(defaultsOfFields(form.items?.fields ?? []))
    setErrors([])
    setStatus('idle')
  }

  async function validate() {
    setStatus('validating')
    try {
      await jsonFetch('/api/v1/plugins/validate', {
        method: 'POST',
        body: { id: plugin.id, options: value, mode: 'run' },
      })
      setErrors([])
      setStatus('valid')
    } catch (error) {
      if (error instanceof HttpError && error.status === 422 && Array.isArray(error.errors)) {
        setErrors(error.errors as ValidationError[])
        setStatus('invalid')
        return
      }
      setStatus('idle')
      const failure = error instanceof HttpError ? error : null
      showToast(
        'error',
        failure?.message ?? t('common.somethingWentWrong'),
        failure?.description ?? null
      )
    }
  }

  return (
    <AppLayout>
      <Head title={t('adminPlugins.previewTitle', { name: plugin.name })} />
      <PageHeader
        title={plugin.name}
        description={plugin.description ?? undefined}
        actions={
          <Button variant="ghost" size="sm" asChild>
            <Link href="/admin/plugins" data-testid="back-to-plugins">
              <ArrowLeftIcon aria-hidden />
              {t('adminPlugins.back')}
            </Link>
          </Button>
        }
      />
      <div className="grid max-w-3xl gap-6 p-6">
        <div className="flex items-center gap-3 text-sm text-muted-foreground">
          <span className="flex size-8 shrink-0 items-center justify-center rounded-md bg-primary/10 text-primary">
            <PluginIcon id={plugin.id} className="size-4" />
          </span>
          <code className="font-mono text-xs">{plugin.id}</code>
          <span>
            {t(`adminPlugins.categories.${form.category}`, { defaultValue: form.category })}
          </span>
        </div>

        <SettingsSection
          title={t('adminPlugins.optionsTitle')}
          description={t('adminPlugins.optionsDescription')}
        >
          <div className="grid gap-5" data-testid="plugin-form">
            {actions.length > 0 && (
              <div className="grid gap-2">
                <Label htmlFor="plugin-action">{t('adminPlugins.action')}</Label>
                <Select value={actionName} onValueChange={chooseAction}>
                  <SelectTrigger
                    id="plugin-action"
                    className="w-full"
                    data-testid="plugin-action"
                    aria-invalid={!!errorsByPath.action || undefined}
                  >
                    <SelectValue placeholder={t('adminPlugins.chooseAction')} />
                  </SelectTrigger>
                  <SelectContent>
                    {actions.map((candidate) => (
                      <SelectItem key={candidate.name} value={candidate.name}>
                        {candidate.label}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
                <FieldHint>{action?.description}</FieldHint>
                <FieldError>{errorsByPath.action}</FieldError>
              </div>
            )}
            {fields.length === 0 ? (
              <p className="text-sm text-muted-foreground" data-testid="plugin-form-empty">
                {t('adminPlugins.noFields')}
              </p>
            ) : (
              <BlockForm
                slug={form.slug}
                fields={fields}
                value={value}
                onChange={change}
                errors={errorsByPath}
                variables={variables}
                idPrefix="options"
              />
            )}
          </div>

          <div className="flex flex-wrap items-center gap-3 border-t pt-4">
            <Button
              onClick={() => void validate()}
              disabled={status === 'validating'}
              data-testid="validate-options"
            >
              {status === 'validating' && <LoaderCircleIcon aria-hidden className="animate-spin" />}
              {status === 'validating' ? t('adminPlugins.validating') : t('adminPlugins.validate')}
            </Button>
            <Button variant="ghost" onClick={reset} data-testid="reset-options">
              <RotateCcwIcon aria-hidden />
              {t('adminPlugins.reset')}
            </Button>
            <div aria-live="polite" className="text-sm">
              {status === 'valid' && (
                <span
                  className="flex items-center gap-1.5 text-success"
                  data-testid="validation-ok"
                >
                  <CircleCheckIcon aria-hidden className="size-4" />
                  {t('adminPlugins.valid')}
                </span>
              )}
              {status === 'invalid' && (
                <span className="text-destructive" data-testid="validation-failed">
                  {t('adminPlugins.invalid', { count: errors.length })}
                </span>
              )}
            </div>
          </div>
          {status === 'invalid' && errors.length > 0 && (
            <ul
              className="grid gap-1 rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm"
              data-testid="validation-errors"
            >
              {errors.map((error, index) => (
                <li key={`${error.field}-${index}`}>
                  <code className="font-mono text-xs">{error.field}</code>: {error.message}
                </li>
              ))}
            </ul>
          )}
        </SettingsSection>

        {form.items && (
          <SettingsSection
            title={t('adminPlugins.itemsTitle')}
            description={t('adminPlugins.itemsDescription')}
            testId="plugin-items"
          >
            {form.items.fields.length === 0 ? (
              <p className="text-sm text-muted-foreground">{t('adminPlugins.noFields')}</p>
            ) : (
              <PluginForm
                fields={form.items.fields}
                value={item}
                onChange={setItem}
                variables={variables}
                idPrefix="item"
              />
            )}
          </SettingsSection>
        )}

        {form.credentials && form.credentials.length > 0 && (
          <SettingsSection
            title={t('adminPlugins.credentialsTitle')}
            description={t('adminPlugins.credentialsDescription')}
            testId="plugin-credentials"
          >
            <PluginForm
              fields={form.credentials}
              value={defaultsOfFields(form.credentials)}
              onChange={() => {}}
              readOnly
              idPrefix="credentials"
            />
          </SettingsSection>
        )}
      </div>
    </AppLayout>
  )
}
