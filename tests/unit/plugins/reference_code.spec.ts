import { test } from '@japa/runner'
import { referenceAsCode } from '../../../resources/features/plugin_form/reference_code.js'

/** A reference dropped into a script's code (resources/features/plugin_form/reference_code.ts). */

test.group('References as script code', () => {
  test('input, trigger and node references become what the sandbox exposes', ({ assert }) => {
    assert.equal(referenceAsCode('{{$input}}'), 'input')
    assert.equal(referenceAsCode('{{$input.body.items[0].name}}'), 'input.body.items[0].name')
    assert.equal(referenceAsCode('{{$input[2].id}}'), 'input[2].id')
    assert.equal(referenceAsCode('{{ $trigger.query.q }}'), '$trigger.query.q')
    assert.equal(
      referenceAsCode('{{$node["HTTP request"].status}}'),
      '$node["HTTP request"].status'
    )
    assert.equal(referenceAsCode(`{{$node['Say "hi"'].text}}`), '$node["Say \\"hi\\""].text')
    assert.equal(referenceAsCode('{{$node.n1.body}}'), '$node["n1"].body')
  })

  test('keys that are not identifiers are read with brackets', ({ assert }) => {
    assert.equal(
      referenceAsCode('{{$input.headers.content-type}}'),
      'input.headers["content-type"]'
    )
    assert.equal(referenceAsCode('{{$trigger.body.first name}}'), '$trigger.body["first name"]')
  })

  test('anything else is left as it is', ({ assert }) => {
    assert.isUndefined(referenceAsCode('{{City}}'))
    assert.isUndefined(referenceAsCode('Order {{$input.id}}'))
    assert.isUndefined(referenceAsCode('{{$inputs.id}}'))
    assert.isUndefined(referenceAsCode('plain text'))
  })
})
