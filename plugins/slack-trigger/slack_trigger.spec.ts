import { test } from '@japa/runner'
import { eventTypesOf, signatureProblem, slackSignature } from './api.js'

test.group('Slack trigger', () => {
  test('v0 HMAC-SHA256 of v0:{timestamp}:{body}, five minutes at most', ({ assert }) => {
    // Worked by hand: printf 'v0:1531420618:hello' | openssl dgst -sha256 -hmac secret
    const signature = slackSignature('secret', '1531420618', 'hello')
    assert.equal(signature, 'v0=cf20310fa94bde55d7304d8575f22412a81fd33f33f2177e7f815b5172e04376')
    const now = 1531420618 * 1000
    const headers = { 'x-slack-request-timestamp': '1531420618', 'x-slack-signature': signature }
    assert.isNull(signatureProblem('secret', headers, 'hello', now))
    assert.isNull(signatureProblem('secret', headers, 'hello', now + 299_000))
    assert.equal(
      signatureProblem('secret', headers, 'hello', now + 301_000),
      'Stale Slack request timestamp'
    )
    assert.equal(signatureProblem('secret', headers, 'hello!', now), 'Invalid Slack signature')
    assert.equal(signatureProblem('other', headers, 'hello', now), 'Invalid Slack signature')
    assert.equal(signatureProblem('secret', {}, 'hello', now), 'Missing Slack signature')
    assert.deepEqual(eventTypesOf(' message,app_mention  reaction_added '), [
      'message',
      'app_mention',
      'reaction_added',
    ])
    assert.deepEqual(eventTypesOf(''), [])
  })
})
