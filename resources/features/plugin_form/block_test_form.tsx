import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import { HttpError, jsonFetch } from '~/lib/http'
import { PluginForm, type PluginFormProps } from './plugin_form'

export interface TestOutcome {
  logs: { status: 'success' | 'info' | 'error'; description: string; details?: unknown }[]
  variablesSet: { id: string; name: string; value: unknown }[]
}

/** The bot being edited, from the editor's address (/bots/:id/edit). */
function currentBotId() {
  return typeof window === 'undefined'
    ? undefined
    : /\/bots\/([^/]+)\//.exec(window.location.pathname)?.[1]
}

/**
 * Runs a block of the bot being edited on the server (`POST /api/bots/:id/blocks/test`, the
 * workspace's stored credentials, a value per variable) and keeps its outcome: what a form's
 * Test button needs. `botId` is undefined outside the bot editor (no button then).
 */
export function useBlockTest(type: string, failedText: string) {
  const [running, setRunning] = useState(false)
  const [outcome, setOutcome] = useState<TestOutcome | null>(null)
  const [error, setError] = useState<string | null>(null)
  const botId = currentBotId()
  const run = async (options: Record<string, unknown>, values: Record<string, string>) => {
    if (!botId) return
    setRunning(true)
    setError(null)
    try {
      setOutcome(
        await jsonFetch<TestOutcome>(`/api/bots/${botId}/blocks/test`, {
          method: 'POST',
          body: { type, options, values },
        })
      )
    } catch (caught) {
      setOutcome(null)
      setError(caught instanceof HttpError ? caught.message : failedText)
    } finally {
      setRunning(false)
    }
  }
  return { botId, running, outcome, error, run }
}

/** The variables a tested block would set, with their values. */
export function VariablesSet({ outcome }: { outcome: TestOutcome }) {
  if (outcome.variablesSet.length === 0) return null
  return (
    <ul className="text-sm">
      {outcome.variablesSet.map((variable) => (
        <li key={variable.id}>
          <span className="font-medium">{variable.name}</span>:{' '}
          {typeof variable.value === 'string' ? variable.value : JSON.stringify(variable.value)}
        </li>
      ))}
    </ul>
  )
}

/** The bot variables the block's options name as {{Variable}}, in order of appearance. */
function referencedVariables(
  value: Record<string, unknown> | null | undefined,
  variables: PluginFormProps['variables']
) {
  const names = new Set(
    [...JSON.stringify(value ?? {}).matchAll(/\{\{([^{}=]+?)\}\}/g)].map((m) => m[1].trim())
  )
  return (variables ?? []).filter((variable) => names.has(variable.name))
}

/**
 * The generated form plus a Test button, for blocks worth trying from the editor (a database
 * query): the block runs on the server with the workspace's stored credentials and a value
 * typed for each variable it uses, and its logs and the variables it would set show below.
 * Only in the bot editor (the workflow editor has its own test runs).
 */
export function BlockTestForm(props: PluginFormProps & { type: string }) {
  const { type, ...formProps } = props
  const { t } = useTranslation()
  const [values, setValues] = useState<Record<string, string>>({})
  const { botId, running, outcome, error, run } = useBlockTest(type, t('blockTest.failed'))
  const used = useMemo(
    () => referencedVariables(props.value, props.variables),
    [props.value, props.variables]
  )
  const test = () => run(props.value ?? {}, values)

  return (
    <div className="grid gap-4">
      <PluginForm {...formProps} />
      {!props.readOnly && botId && (
        <div className="grid gap-2 border-t pt-3">
          {used.map((variable) => (
            <label key={variable.id} className="grid gap-1 text-sm">
              <span>{t('blockTest.valueOf', { name: variable.name })}</span>
              <Input
                value={values[variable.id] ?? ''}
                onChange={(e) => setValues({ ...values, [variable.id]: e.target.value })}
                data-testid={`block-test-value-${variable.name}`}
              />
            </label>
          ))}
          <Button
            type="button"
            variant="secondary"
            onClick={test}
            disabled={running}
            data-testid="block-test"
          >
            {running ? t('blockTest.running') : t('blockTest.button')}
          </Button>
          {error && (
            <p role="alert" className="text-sm text-destructive">
              {error}
            </p>
          )}
          {outcome && (
            <div className="grid gap-2" data-testid="block-test-result" aria-live="polite">
              {outcome.logs.length === 0 && outcome.variablesSet.length === 0 && (
                <p className="text-sm text-muted-foreground">{t('blockTest.nothing')}</p>
              )}
              {outcome.logs.map((log, index) => (
                <p
                  key={index}
                  className={
                    log.status === 'error'
                      ? 'text-sm text-destructive'
                      : 'text-sm text-muted-foreground'
                  }
                >
                  {log.description}
                  {log.status === 'error' && typeof log.details === 'string'
                    ? `: ${log.details}`
                    : ''}
                </p>
              ))}
              <VariablesSet outcome={outcome} />
            </div>
          )}
        </div>
      )}
    </div>
  )
}
