import { test } from '@japa/runner'
import { isValidTwilioSignature, twilioSignature } from './signature.js'

/**
 * plugins/twilio/signature.ts against the worked example of Twilio's webhook security page
 * (https://www.twilio.com/docs/usage/webhooks/webhooks-security): auth token 12345, this URL
 * and these POST parameters sign as 0/KCTR6DLpKmkAf8muzZqo1nDgQ=.
 */
const TOKEN = '12345'
const URL = 'https://mycompany.com/myapp.php?foo=1&bar=2'
const PARAMS = {
  CallSid: 'CA1234567890ABCDE',
  Caller: '+12349013030',
  Digits: '1234',
  From: '+12349013030',
  To: '+18005551212',
}
const DOCUMENTED = '0/KCTR6DLpKmkAf8muzZqo1nDgQ='

test.group('Twilio request signature', () => {
  test("matches Twilio's documented example, whatever the order of the parameters", ({
    assert,
  }) => {
    assert.equal(twilioSignature(TOKEN, URL, PARAMS), DOCUMENTED)
    const reversed = Object.fromEntries(Object.entries(PARAMS).reverse())
    assert.equal(twilioSignature(TOKEN, URL, reversed), DOCUMENTED)
    assert.isTrue(isValidTwilioSignature(TOKEN, URL, PARAMS, DOCUMENTED))
  })

  test('refuses another token, URL, parameter value, a missing or cut signature', ({ assert }) => {
    assert.isFalse(isValidTwilioSignature('54321', URL, PARAMS, DOCUMENTED))
    assert.isFalse(
      isValidTwilioSignature(TOKEN, 'https://mycompany.com/myapp.php', PARAMS, DOCUMENTED)
    )
    assert.isFalse(isValidTwilioSignature(TOKEN, URL, { ...PARAMS, Digits: '9' }, DOCUMENTED))
    assert.isFalse(isValidTwilioSignature(TOKEN, URL, { ...PARAMS, Extra: '' }, DOCUMENTED))
    assert.isFalse(isValidTwilioSignature(TOKEN, URL, PARAMS, undefined))
    assert.isFalse(isValidTwilioSignature(TOKEN, URL, PARAMS, DOCUMENTED.slice(0, -1)))
    assert.isFalse(isValidTwilioSignature('', URL, PARAMS, DOCUMENTED))
  })
})
