import { useTranslation } from 'react-i18next'
import { Button } from '~/components/ui/button'
import type { CustomFormProps } from './block_form'
import { PluginForm } from './plugin_form'
import { useBlockTest, VariablesSet } from './block_test_form'

export interface HttpRequestTestFormProps extends CustomFormProps {
  /** The block type the test runs (the HTTP request plugin or a service's webhook block). */
  blockType: string
  /**
   * Shown above the Test button: for a service's webhook, that the test sends the sample
   * payload the service waits for to learn the fields.
   */
  hint?: string
}

/**
 * The generated form plus "Test the request": the request runs on the server with the
 * block's test values, and the answer and mapped variables show below, so the builder
 * can pick body paths from a real response. The automation services' webhook blocks
 * (Zapier, Make, Pabbly) use it too: their "catch hook" learns the payload's fields from
 * this test call.
 */
export function HttpRequestTestForm({ blockType, hint, ...props }: HttpRequestTestFormProps) {
  const { t } = useTranslation()
  const { botId, running, outcome, error, run } = useBlockTest(
    blockType,
    t('httpRequestTest.failed')
  )

  const test = () => {
    const tests = (props.value?.variablesForTest as { variableId?: string; value?: string }[]) ?? []
    const values = Object.fromEntries(
      tests
        .filter((entry) => entry.variableId)
        .map((entry) => [entry.variableId!, entry.value ?? ''])
    )
    return run(props.value ?? {}, values)
  }

  const response = outcome?.logs.find((log) => log.details !== undefined)?.details
  return (
    <div className="grid gap-4">
      <PluginForm {...props} />
      {!props.readOnly && botId && (
        <div className="grid gap-2 border-t pt-3">
          {hint && <p className="text-sm text-muted-foreground">{hint}</p>}
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
              <VariablesSet outcome={outcome} />
            </div>
          )}
        </div>
      )}
    </div>
  )
}
