import { test } from '@japa/runner'
import webhookTrigger from '../../../plugins/webhook-trigger/index.js'
import manualTrigger from '../../../plugins/manual-trigger/index.js'
import setVariable from '../../../plugins/set-variable/index.js'
import httpRequest from '../../../plugins/http-request/index.js'
import { schemaPaths } from '#plugins/output_schema'
import { suggest } from '../../../resources/features/plugin_form/expressions.js'
import {
  declaredInput,
  declaredOutput,
} from '../../../resources/features/workflow_editor/declared_output.js'
import type { WorkflowBlock, WorkflowEdge } from '#shared/workflow/types'

/**
 * Output schemas (packages/sdk/src/output_schema.ts): what the editor knows of a node's
 * output before any test run, for the `{{` completion and the node panel.
 */

const plugins = new Map(
  [webhookTrigger, manualTrigger, setVariable, httpRequest].map((plugin) => [
    plugin.id,
    { outputSchema: plugin.outputSchema },
  ])
)

const block = (id: string, type: string, extra: Partial<WorkflowBlock> = {}): WorkflowBlock => ({
  id,
  type,
  graphCoordinates: { x: 0, y: 0 },
  ...extra,
})
const edge = (from: string, to: string): WorkflowEdge => ({
  id: `${from}-${to}`,
  from: { blockId: from },
  to: { blockId: to },
})

test.group('Output schemas', () => {
  test('a webhook trigger declares the call; Set variable passes its input on', ({ assert }) => {
    const doc = {
      blocks: [
        block('hook', 'webhook-trigger'),
        block('set', 'Set variable'),
        block('http', 'Code'),
      ],
      edges: [edge('hook', 'set'), edge('set', 'http')],
    }
    const hook = declaredOutput(doc, plugins, 'hook')!
    assert.isUndefined(hook.sample)
    assert.includeMembers(
      schemaPaths(hook.schema).map(([path]) => path),
      ['method', 'headers', 'headers.content-type', 'query', 'body']
    )
    // Set variable outputs its input: the webhook's call, two nodes down.
    assert.deepEqual(declaredInput(doc, plugins, 'http'), hook)
    // A type no plugin of the map declares: nothing known.
    assert.isUndefined(declaredOutput(doc, plugins, 'http'))
  })

  test('a manual trigger declares the shape of its test input; pinned data wins', ({ assert }) => {
    const doc = {
      blocks: [
        block('start', 'manual-trigger', { options: { testInput: '{"order":{"id":"A-1"}}' } }),
        block('next', 'Code'),
      ],
      edges: [edge('start', 'next')],
    }
    assert.deepEqual(schemaPaths(declaredInput(doc, plugins, 'next')!.schema), [
      ['order', 'object'],
      ['order.id', 'string'],
    ])
    // Invalid JSON: nothing declared rather than a failure.
    doc.blocks[0].options = { testInput: '{oops' }
    assert.isUndefined(declaredOutput(doc, plugins, 'start'))
    doc.blocks[0].pinnedData = { name: 'Pinned Ada', tags: ['x'] }
    assert.deepEqual(declaredOutput(doc, plugins, 'start')?.sample, {
      name: 'Pinned Ada',
      tags: ['x'],
    })
  })

  test('completion lists declared fields with their types before any run', ({ assert }) => {
    const http = declaredOutput({ blocks: [block('h', 'Webhook')], edges: [] }, plugins, 'h')!
    const scope = {
      variables: [],
      references: {
        triggerSchema: declaredOutput(
          { blocks: [block('w', 'webhook-trigger')], edges: [] },
          plugins,
          'w'
        )!.schema,
        nodes: [{ id: 'h', title: 'HTTP request', schema: http.schema }],
      },
    }
    const node = suggest('HTTP', scope)[0]
    assert.equal(node.text, '$node["HTTP request"].')
    assert.isTrue(node.open)
    assert.deepEqual(
      suggest('$node["HTTP request"].', scope).map((s) => [s.label, s.detail]),
      [
        ['statusCode', 'number'],
        ['headers', 'object'],
        ['headers.content-type', 'string'],
        ['body', 'any'],
      ]
    )
    assert.equal(suggest('$trigger', scope)[0].text, '$trigger.')
    assert.deepEqual(
      suggest('$trigger.bo', scope).map((s) => s.text),
      ['$trigger.body']
    )
  })

  test('$trigger completes from pinned trigger data with its values', ({ assert }) => {
    const doc = {
      blocks: [block('start', 'manual-trigger', { pinnedData: { name: 'Pinned Ada' } })],
      edges: [],
    }
    const pinned = declaredOutput(doc, plugins, 'start')!
    const scope = {
      variables: [],
      references: { trigger: pinned.sample, triggerSchema: pinned.schema, nodes: [] },
    }
    assert.deepEqual(
      suggest('$trigger.', scope).map((s) => [s.text, s.detail]),
      [['$trigger.name', 'Pinned Ada']]
    )
  })
})
