import { useMemo, useState, type ReactNode } from 'react'
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

/**
 * A Test button and what the run showed: its logs, `extra` under them (an HTTP answer), the
 * variables it would set. `children` go above the button (values to type, a hint). The
 * result's test id is the button's with `-result`.
 */
export function BlockTestPanel(props: {
  testId: string
  labels: { button: string; running: string; nothing?: string }
  state: Pick<ReturnType<typeof useBlockTest>, 'running' | 'outcome' | 'error'>
  onTest: () => void
  /** Whether an error log shows its text details after its description. */
  errorDetails?: boolean
  extra?: ReactNode
  children?: ReactNode
}) {
  const { testId, labels, onTest, errorDetails, extra, children } = props
  const { running, outcome, error } = props.state
  return (
    <div className="grid gap-2 border-t pt-3">
      {children}
      <Button
        type="button"
        variant="secondary"
        onClick={onTest}
        disabled={running}
        data-testid={testId}
      >
        {running ? labels.running : labels.button}
      </Button>
      {error && (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
      {outcome && (
        <div className="grid gap-2" data-testid={`${testId}-result`} aria-live="polite">
          {labels.nothing && outcome.logs.length === 0 && outcome.variablesSet.length === 0 && (
            <p className="text-sm text-muted-foreground">{labels.nothing}</p>
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
              {errorDetails && log.status === 'error' && typeof log.details === 'string'
                ? `: ${log.details}`
                : ''}
            </p>
          ))}
          {extra}
          <VariablesSet outcome={outcome} />
        </div>
      )}
    </div>
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
  const test = useBlockTest(type, t('blockTest.failed'))
  const botId = test.botId
  const used = useMemo(
    () => referencedVariables(props.value, props.variables),
    [props.value, props.variables]
  )

  return (
    <div className="grid gap-4">
      <PluginForm {...formProps} />
      {!props.readOnly && botId && (
        <BlockTestPanel
          testId="block-test"
          labels={{
            button: t('blockTest.button'),
            running: t('blockTest.running'),
            nothing: t('blockTest.nothing'),
          }}
          state={test}
          onTest={() => test.run(props.value ?? {}, values)}
          errorDetails
        >
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
        </BlockTestPanel>
      )}
    </div>
  )
}
