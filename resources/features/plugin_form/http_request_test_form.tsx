import { useTranslation } from 'react-i18next'
import type { CustomFormProps } from './block_form'
import { PluginForm } from './plugin_form'
import { BlockTestPanel, useBlockTest } from './block_test_form'

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
  const test = useBlockTest(blockType, t('httpRequestTest.failed'))

  const run = () => {
    const tests = (props.value?.variablesForTest as { variableId?: string; value?: string }[]) ?? []
    const values = Object.fromEntries(
      tests
        .filter((entry) => entry.variableId)
        .map((entry) => [entry.variableId!, entry.value ?? ''])
    )
    return test.run(props.value ?? {}, values)
  }

  const response = test.outcome?.logs.find((log) => log.details !== undefined)?.details
  return (
    <div className="grid gap-4">
      <PluginForm {...props} />
      {!props.readOnly && test.botId && (
        <BlockTestPanel
          testId="test-request"
          labels={{ button: t('httpRequestTest.button'), running: t('httpRequestTest.running') }}
          state={test}
          onTest={run}
          extra={
            response !== undefined && (
              <pre className="max-h-64 overflow-auto rounded-md bg-muted p-2 text-xs">
                {JSON.stringify(response, null, 2)}
              </pre>
            )
          }
        >
          {hint && <p className="text-sm text-muted-foreground">{hint}</p>}
        </BlockTestPanel>
      )}
    </div>
  )
}
