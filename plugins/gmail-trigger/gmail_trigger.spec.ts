import { test } from '@japa/runner'
import { test as testCredentials } from './credentials.js'
import { messageInput, pollEveryMs } from './runner.js'

test.group('Gmail trigger', () => {
  test('a message becomes the run input', ({ assert }) => {
    assert.deepEqual(
      messageInput({
        id: 'm1',
        threadId: 't1',
        labelIds: ['INBOX'],
        snippet: 'Hi',
        internalDate: '1700000000000',
        payload: {
          headers: [
            { name: 'from', value: 'a@example.com' },
            { name: 'Subject', value: 'Hello' },
          ],
        },
      }),
      {
        id: 'm1',
        threadId: 't1',
        from: 'a@example.com',
        to: null,
        subject: 'Hello',
        snippet: 'Hi',
        date: '2023-11-14T22:13:20.000Z',
        labels: ['INBOX'],
      }
    )
  })

  test('polling every 1 to 59 minutes', ({ assert }) => {
    assert.equal(pollEveryMs({ pollMinutes: 59 }), 59 * 60_000)
    assert.equal(pollEveryMs({ pollMinutes: 500 }), 59 * 60_000)
    assert.equal(pollEveryMs({ pollMinutes: 'x' }), 60_000)
  })

  test('a record with neither an access token nor a refresh token says what Gmail needs', async ({
    assert,
  }) => {
    const calls: string[] = []
    const answer = await testCredentials({
      credentials: { refreshToken: 'refresh-1', clientId: 'client-1' },
      http: {
        request: async (url) => {
          calls.push(String(url))
          return new Response(null, { status: 500 })
        },
      },
      signal: new AbortController().signal,
    })
    assert.deepEqual(answer, {
      ok: false,
      message:
        'Gmail: the credentials need an access token, or a refresh token with the OAuth client ID and secret',
    })
    assert.deepEqual(calls, [])
  })
})
