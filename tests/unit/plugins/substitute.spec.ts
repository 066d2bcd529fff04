import { test } from '@japa/runner'
import { formatVariableValue, substituteDeep, substituteVariables } from '#plugins/substitute'

const variables = [
  { id: 'v1', name: 'Name', value: 'Ada' },
  { id: 'v2', name: 'Empty', value: '' },
  { id: 'v3', name: 'Tags', value: ['a', 'b', 'c'] },
  { id: 'v4', name: 'Profile', value: { age: 36 } as unknown },
  { id: 'v5', name: 'Count', value: 3 as unknown },
  { id: 'v6', name: 'Name', value: 'shadowed' },
  { id: 'v7', name: 'Unset' },
]

test.group('Variable substitution', () => {
  test('replaces {{Variable name}} by the value', ({ assert }) => {
    assert.equal(substituteVariables('Hello {{Name}}!', variables), 'Hello Ada!')
    assert.equal(substituteVariables('Hello {{ Name }}', variables), 'Hello Ada')
    assert.equal(substituteVariables('{{Count}} items', variables), '3 items')
    assert.equal(substituteVariables('no variables', variables), 'no variables')
  })

  test('unknown or empty variables read as an empty string', ({ assert }) => {
    assert.equal(substituteVariables('[{{Nope}}][{{Empty}}][{{Unset}}]', variables), '[][][]')
  })

  test('arrays join with a comma, objects become JSON', ({ assert }) => {
    assert.equal(substituteVariables('{{Tags}}', variables), 'a, b, c')
    assert.equal(substituteVariables('{{Profile}}', variables), '{"age":36}')
    assert.equal(formatVariableValue(null), '')
    assert.equal(formatVariableValue(false), 'false')
  })

  test('{{= expressions =}} are left for the sandbox', ({ assert }) => {
    assert.equal(
      substituteVariables('{{Name}} is {{= {{Count}} * 2 =}} years', variables),
      'Ada is {{= {{Count}} * 2 =}} years'
    )
  })

  test('substituteDeep walks strings of nested options and lists the expressions', ({ assert }) => {
    const options = {
      url: 'https://x.test/{{Name}}',
      timeout: 10,
      isCustomBody: true,
      headers: [{ key: 'X-Tags', value: '{{Tags}}' }],
      nested: { deep: ['{{Count}}', null], expression: '{{= new Date().getFullYear() =}}' },
      code: 'return {{Name}}',
    }
    const { value, expressions } = substituteDeep(options, variables, { skipKeys: ['code'] })
    assert.deepEqual(value, {
      url: 'https://x.test/Ada',
      timeout: 10,
      isCustomBody: true,
      headers: [{ key: 'X-Tags', value: 'a, b, c' }],
      nested: { deep: ['3', null], expression: '{{= new Date().getFullYear() =}}' },
      code: 'return {{Name}}',
    })
    assert.deepEqual(expressions, ['new Date().getFullYear()'])
    // The input is not modified.
    assert.equal(options.url, 'https://x.test/{{Name}}')
  })
})
