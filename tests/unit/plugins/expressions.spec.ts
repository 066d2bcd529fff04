import { test } from '@japa/runner'
import {
  applySuggestion,
  samplePaths,
  suggest,
  type ExpressionScope,
} from '../../../resources/features/plugin_form/expressions.js'

/** The `{{` completion list of both editors (resources/features/plugin_form/expressions.ts). */

const scope: ExpressionScope = {
  variables: [
    { id: 'v1', name: 'City' },
    { id: 'v2', name: 'Order id' },
  ],
  references: {
    input: { status: 200 },
    trigger: { body: { email: 'a@b.c' } },
    nodes: [
      {
        id: 'n2',
        title: 'HTTP request',
        sample: { status: 404, body: { items: [{ name: 'x' }] } },
      },
      { id: 'n1', title: 'Webhook', name: 'n1' },
    ],
  },
  createVariable: (name) => ({ id: 'new', name }),
}

const labels = (query: string, within = scope) => suggest(query, within).map((s) => s.label)

test.group('Expressions / completion', () => {
  test('{{ lists variables, run data and earlier nodes; text narrows them', ({ assert }) => {
    assert.deepEqual(labels(''), [
      'City',
      'Order id',
      '$input',
      '$trigger',
      'HTTP request',
      'Webhook',
    ])
    assert.deepEqual(labels('http'), ['HTTP request', 'http'])
    assert.equal(suggest('http', scope).at(-1)?.create, 'http')
    // A name a variable has, or a reference, is not offered for creation.
    assert.notInclude(
      suggest('City', scope).map((s) => s.kind),
      'create'
    )
    assert.deepEqual(labels('$in'), ['$input'])
    // Without run data (the bot editor), variables alone.
    assert.deepEqual(labels('', { variables: scope.variables }), ['City', 'Order id'])
  })

  test('a node with a sample opens on its fields; an unnamed one is read by id', ({ assert }) => {
    const [node] = suggest('HTTP', scope)
    assert.equal(node.text, '$node["HTTP request"].')
    assert.isTrue(node.open)
    const [webhook] = suggest('Webhook', scope)
    assert.equal(webhook.text, '$node["n1"]')
    assert.isFalse(webhook.open)

    const fields = suggest('$node["HTTP request"].', scope)
    assert.deepEqual(
      fields.map((s) => s.text),
      [
        '$node["HTTP request"].status',
        '$node["HTTP request"].body',
        '$node["HTTP request"].body.items',
        '$node["HTTP request"].body.items[0]',
        '$node["HTTP request"].body.items[0].name',
      ]
    )
    assert.equal(fields[0].detail, '404')
    assert.deepEqual(
      suggest('$node["HTTP request"].na', scope).map((s) => s.label),
      ['body.items[0].name']
    )
    assert.deepEqual(
      suggest('$trigger.', scope).map((s) => s.text),
      ['$trigger.body', '$trigger.body.email']
    )
  })

  test('a choice replaces the open reference and keeps a closing }} typed already', ({
    assert,
  }) => {
    const field = { key: 'f', label: 'status', kind: 'field' as const, text: '$input.status' }
    assert.deepEqual(applySuggestion('Got {{$in}} ok', 9, field), {
      text: 'Got {{$input.status}} ok',
      cursor: 21,
    })
    const node = { key: 'n', label: 'A', kind: 'node' as const, text: '$node["A"].', open: true }
    assert.deepEqual(applySuggestion('{{A', 3, node), { text: '{{$node["A"].', cursor: 13 })
    assert.isNull(applySuggestion('no reference', 5, field))
  })

  test('paths skip keys a path cannot name and stop at four levels', ({ assert }) => {
    const paths = samplePaths({ 'a.b': 1, 'ok': { b: { c: { d: { e: 1 } } } } }).map(([p]) => p)
    assert.deepEqual(paths, ['ok', 'ok.b', 'ok.b.c', 'ok.b.c.d'])
  })
})
