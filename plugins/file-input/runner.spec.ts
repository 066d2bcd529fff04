import { test } from '@japa/runner'
import { parse } from './runner.js'
import { parseAnswer } from '#sdk/testing'

const A = 'https://files.test/a.pdf'
const B = 'https://files.test/b.png'

test.group('File input parser', () => {
  test('one URL in the text or in the attached files', async ({ assert }) => {
    assert.deepEqual(await parseAnswer(parse, A), {
      status: 'success',
      value: A,
      attachedFileUrls: [A],
    })
    assert.deepEqual(await parseAnswer(parse, { text: '', attachedFileUrls: [A] }), {
      status: 'success',
      value: A,
      attachedFileUrls: [A],
    })
    // A path of this app is made absolute.
    assert.deepEqual(await parseAnswer(parse, '/uploads/c.txt'), {
      status: 'success',
      value: 'http://localhost:3333/uploads/c.txt',
      attachedFileUrls: ['http://localhost:3333/uploads/c.txt'],
    })
  })

  test('several files only when allowed', async ({ assert }) => {
    const options = { isMultipleAllowed: true }
    assert.deepEqual(await parseAnswer(parse, `${A}, ${B}`, { options }), {
      status: 'success',
      value: `${A}, ${B}`,
      attachedFileUrls: [A, B],
    })
    assert.deepEqual(await parseAnswer(parse, { text: A, attachedFileUrls: [A, B] }, { options }), {
      status: 'success',
      value: `${A}, ${B}`,
      attachedFileUrls: [A, B],
    })
    assert.equal((await parseAnswer(parse, `${A}, ${B}`)).status, 'fail')
    assert.equal((await parseAnswer(parse, { text: '', attachedFileUrls: [A, B] })).status, 'fail')
  })

  test('refuses what is not a file URL', async ({ assert }) => {
    for (const answer of ['hello', 'ftp://files.test/a', `${A}, nope`, 'javascript:alert(1)']) {
      assert.equal(
        (await parseAnswer(parse, answer, { options: { isMultipleAllowed: true } })).status,
        'fail',
        answer
      )
    }
  })

  test('a required file cannot be skipped', async ({ assert }) => {
    assert.equal((await parseAnswer(parse, '')).status, 'fail')
    assert.equal((await parseAnswer(parse, 'Skip')).status, 'fail')
    assert.equal(
      (await parseAnswer(parse, 'Skip', { options: { isRequired: true } })).status,
      'fail'
    )
  })

  test('an optional file is skipped with the skip label or nothing', async ({ assert }) => {
    const skipped = { status: 'success', value: 'Skip', variableValue: '' }
    assert.deepEqual(await parseAnswer(parse, 'skip', { options: { isRequired: false } }), skipped)
    assert.deepEqual(await parseAnswer(parse, '', { options: { isRequired: false } }), skipped)
    assert.deepEqual(
      await parseAnswer(parse, 'Passer', {
        options: { isRequired: false, labels: { skip: 'Passer' } },
      }),
      { status: 'success', value: 'Passer', variableValue: '' }
    )
  })
})
