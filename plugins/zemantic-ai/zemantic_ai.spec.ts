import { test } from '@japa/runner'
import { overrideBrainServiceUrl } from '#sdk/brain'
import { runPluginTest } from '#sdk/testing'
import { startBrainStandIn } from './stand_in.js'

/**
 * Zemantic AI against a stand-in of the brain service (stand_in.ts), pointed at with
 * overrideBrainServiceUrl as BRAIN_SERVICE_URL would.
 */
const folder = new URL('./', import.meta.url)

test.group('Plugin Zemantic AI', () => {
  test('POST /ask_query with the document and the question; the response is saved', async ({
    assert,
    cleanup,
  }) => {
    const brain = await startBrainStandIn({
      documents: { 'docs/handbook.pdf': 'Leave is 25 days.' },
    })
    cleanup(() => brain.close())
    cleanup(overrideBrainServiceUrl(brain.baseUrl))
    const run = await runPluginTest({
      folder,
      surface: 'bot',
      options: {
        filepath: 'docs/handbook.pdf',
        query: '{{Question}}',
        saveAnswerInVariableId: 'v_answer',
      },
      variables: [
        { id: 'v_q', name: 'Question', value: 'How many days of leave?' },
        { id: 'v_answer', name: 'Answer', value: null },
      ],
    })
    assert.deepEqual(run.errors, [])
    assert.deepEqual(
      brain.requests.map((r) => [r.path, r.body]),
      [['/ask_query', { filepath: 'docs/handbook.pdf', query: 'How many days of leave?' }]]
    )
    assert.deepEqual(run.variablesSet, [
      { id: 'v_answer', value: 'From docs/handbook.pdf: Leave is 25 days.' },
    ])

    const node = await runPluginTest({
      folder,
      surface: 'workflow',
      options: { filepath: 'docs/handbook.pdf', query: 'Leave?' },
    })
    assert.deepEqual(node.output, { answer: 'From docs/handbook.pdf: Leave is 25 days.' })
  })

  test("the service's detail explains a refusal", async ({ assert, cleanup }) => {
    const brain = await startBrainStandIn()
    cleanup(() => brain.close())
    cleanup(overrideBrainServiceUrl(brain.baseUrl))
    const run = await runPluginTest({
      folder,
      surface: 'bot',
      options: { filepath: 'missing.pdf', query: 'Anything?', saveAnswerInVariableId: 'v' },
    })
    assert.deepEqual(run.errors, [
      'Zemantic AI: The brain service refused /ask_query: File missing.pdf not found',
    ])
    assert.deepEqual(run.variablesSet, [])
  })
})
