import { test } from '@japa/runner'
import {
  jsonProblem,
  referencesAsJsonStrings,
  referencesAsNames,
} from '../../../resources/features/plugin_form/code_problems.js'

test.group('Code editor / problems before a run', () => {
  test('{{references}} stand in as names of the same length in code', ({ assert }) => {
    const code = 'return {{Total}} * 2'
    const replaced = referencesAsNames(code)
    assert.equal(replaced, 'return _________ * 2')
    assert.lengthOf(replaced, code.length)
  })

  test('{{references}} in JSON: a string outside strings, untouched inside', ({ assert }) => {
    const text = '{ "age": {{Age}}, "name": "{{Name}}", {{Key}}: 1, "q": "a\\"{{X}}" }'
    const replaced = referencesAsJsonStrings(text)
    assert.lengthOf(replaced, text.length)
    assert.doesNotThrow(() => JSON.parse(replaced))
    assert.include(replaced, '"name": "{{Name}}"')
    assert.include(replaced, '"q": "a\\"{{X}}"')
  })

  test('JSON problems point where parsing stops', ({ assert }) => {
    assert.isNull(jsonProblem('{"a": 1}', false))
    assert.isNull(jsonProblem('{"a": {{A}}}', true))
    assert.isNotNull(jsonProblem('{"a": {{A}}}', false))
    const trailing = jsonProblem('{"a": 1,}', false)
    assert.equal(trailing?.from, 8)
    // Cut short: at the end of what was typed (trailing spaces aside).
    assert.equal(jsonProblem('{"a": ', false)?.from, 5)
  })
})
