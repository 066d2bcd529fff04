import { test } from '@japa/runner'
import {
  comparisonOf,
  translateJs,
  translateJsValue,
  translateText,
  UntranslatedExpression,
} from '#services/n8n_import/expressions'

/** n8n expressions as ours (app/sdk/n8n.ts; docs/migrating-from-n8n.md, "Expressions"). */
test.group('n8n expressions', () => {
  test('data reads become references, other code inline expressions', ({ assert }) => {
    const cases: [string, string][] = [
      ['={{ $json.body.name }}', '{{$input.body.name}}'],
      ['={{ $json["city"] }}', '{{$input.city}}'],
      ['={{ $json["first name"] }}', '{{$input.first name}}'],
      ['={{ $input.first().json.items[0].id }}', '{{$input.items[0].id}}'],
      ["={{ $('Fetch user').item.json.email }}", '{{$node["Fetch user"].email}}'],
      ['={{ $node["Fetch"].json.id }}', '{{$node["Fetch"].id}}'],
      ['=Hi {{ $json.name }}!', 'Hi {{$input.name}}!'],
      ['={{ $json.a * 2 }}', '{{= {{$input.a}} * 2 =}}'],
      ['={{ $json.name.toUpperCase() }}', '{{= {{$input.name}}.toUpperCase() =}}'],
      ['={{ $now }}', '{{= new Date().toISOString() =}}'],
      ['plain {{ not an expression }}', 'plain {{ not an expression }}'],
    ]
    for (const [n8n, ours] of cases) assert.equal(translateText(n8n), ours, n8n)
    assert.equal(translateText(42), '42')
    assert.equal(translateText({ a: 1 }), '{"a":1}')
  })

  test("data paths: where n8n puts a node's $json in our output", ({ assert }) => {
    const paths = (node: string | undefined) =>
      node === 'HTTP' || node === undefined ? 'body' : ''
    assert.equal(translateText('={{ $json.id }}', paths), '{{$input.body.id}}')
    assert.equal(translateText("={{ $('HTTP').item.json.id }}", paths), '{{$node["HTTP"].body.id}}')
    assert.equal(translateText("={{ $('Set').item.json.id }}", paths), '{{$node["Set"].id}}')
    assert.equal(translateJs('return $json.id', paths), 'return input.body.id')
  })

  test('script values keep their type; text with blocks becomes a template', ({ assert }) => {
    assert.equal(translateJsValue('={{ $json.n + 1 }}'), '(input.n + 1)')
    assert.equal(
      translateJsValue('=Total: {{ $json.gross }} `EUR`'),
      '`Total: ${input.gross} \\`EUR\\``'
    )
    assert.equal(translateJsValue(3), '3')
    assert.equal(translateJsValue('text'), '"text"')
    assert.equal(
      translateJs("const u = $('User').first().json; return { n: $json.n, u: u.email }"),
      'const u = $node["User"]; return { n: input.n, u: u.email }'
    )
  })

  test('names without counterpart are refused, not guessed', ({ assert }) => {
    for (const expression of [
      '={{ $env.API_KEY }}',
      '={{ $workflow.id }}',
      '={{ $execution.id }}',
    ]) {
      assert.throws(() => translateText(expression), UntranslatedExpression)
      assert.throws(() => translateJsValue(expression), UntranslatedExpression)
    }
    // A dollar inside a string is data, not a name.
    assert.equal(
      translateText('={{ $json.price + " $USD" }}'),
      '{{= {{$input.price}} + " $USD" =}}'
    )
  })

  test('comparisons read data on the left; the others are reported', ({ assert }) => {
    const lost: string[] = []
    const tools = {
      text: (value: unknown) => translateText(value),
      lost: (what: string) => lost.push(what),
    }
    assert.deepEqual(comparisonOf('={{ $json.amount }}', 'gt', 100, tools), {
      variableId: '{{$input.amount}}',
      comparisonOperator: 'Greater than',
      value: '100',
    })
    assert.deepEqual(comparisonOf('={{ $json.ok }}', 'true', undefined, tools)?.value, 'true')
    assert.isUndefined(comparisonOf('={{ $json.a }}', 'afterDate', '2020', tools))
    assert.isUndefined(comparisonOf('literal', 'equals', 'x', tools))
    assert.lengthOf(lost, 2)
  })
})
