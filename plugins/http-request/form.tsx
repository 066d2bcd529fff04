import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button, type CustomFormProps, HttpError, jsonFetch, PluginForm } from '#sdk/forms'

interface TestOutcome {
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
 * The generated form plus "Test the request": the request runs on the server with the
 * block's test values, and the answer and mapped variables show below, so the builder
 * can pick body paths from a real response.
 */
export default function HttpRequestForm(props: CustomFormProps) {
  const { t } = useTranslation()
  const [running, setRunning] = useState(false)
  const [outcome, setOutcome] = useState<TestOutcome | null>(null)
  const [error, setError] = useState<string | null>(null)
  const botId = currentBotId()

  const test = async () => {
    if (!botId) return
    setRunning(true)
    setError(null)
    try {
      const tests =
        (props.value?.variablesForTest as { variableId?: string; value?: string }[]) ?? []
      const values = Object.fromEntries(
        tests
          .filter((entry) => entry.variableId)
          .map((entry) => [entry.variableId!, entry.value ?? ''])
      )
      setOutcome(
        await jsonFetch<TestOutcome>(`/api/bots/${botId}/blocks/test`, {
          method: 'POST',
          body: { type: 'Webhook', options: props.value ?? {}, values },
        })
      )
    } catch (caught) {
      setOutcome(null)
      setError(caught instanceof HttpError ? caught.message : t('httpRequestTest.failed'))
    } finally {
      setRunning(false)
    }
  }

  const response = outcome?.logs.find((log) => log.details !== undefined)?.details
  return (
    <div className="grid gap-4">
      <PluginForm {...props} />
      {!props.readOnly && botId && (
        <div className="grid gap-2 border-t pt-3">
          <Button
            type="button"
            variant="secondary"
            onClick={test}
            disabled={running}
            data-testid="test-request"
          >
            {running ? t('httpRequestTest.running') : t('httpRequestTest.button')}
          </Button>
          {error && (
            <p role="alert" className="text-sm text-destructive">
              {error}
            </p>
          )}
          {outcome && (
            <div className="grid gap-2" data-testid="test-request-result" aria-live="polite">
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
                </p>
              ))}
              {response !== undefined && (
                <pre className="max-h-64 overflow-auto rounded-md bg-muted p-2 text-xs">
                  {JSON.stringify(response, null, 2)}
                </pre>
              )}
              {outcome.variablesSet.length > 0 && (
                <ul className="text-sm">
                  {outcome.variablesSet.map((variable) => (
                    <li key={variable.id}>
                      <span className="font-medium">{variable.name}</span>:{' '}
                      {typeof variable.value === 'string'
                        ? variable.value
                        : JSON.stringify(variable.value)}
                    </li>
                  ))}
                </ul>
              )}
            </div>
          )}
        </div>
      )}
    </div>
  )
}
