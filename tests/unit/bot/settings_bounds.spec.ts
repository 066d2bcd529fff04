import { test } from '@japa/runner'
import {
  BOT_NUMBER_FIELDS,
  botFieldProblems,
  boundMessage,
  numberProblem,
  SETTINGS_BOUNDS,
  THEME_BOUNDS,
} from '#shared/bot/settings_bounds'

test.group('Bot settings and theme bounds (shared by the editor and the server)', () => {
  test('the settings’ bounds, in the editor’s words', ({ assert }) => {
    assert.equal(boundMessage(SETTINGS_BOUNDS.sessionExpiryTimeout), 'Must be between 0.01 and 48')
    assert.equal(boundMessage(SETTINGS_BOUNDS.delayBetweenBubbles), 'Must be between 0 and 5')
    assert.equal(boundMessage(THEME_BOUNDS.opacity), 'Must be between 0 and 1')
    assert.equal(boundMessage({ min: 1 }), 'Must be at least 1')
    assert.isUndefined(numberProblem(undefined, THEME_BOUNDS.opacity))
    assert.isUndefined(numberProblem(null, THEME_BOUNDS.opacity))
    assert.isUndefined(numberProblem(1, THEME_BOUNDS.opacity))
    assert.equal(numberProblem(Number.NaN, THEME_BOUNDS.opacity), 'Must be a number')
    assert.equal(numberProblem('0.5', THEME_BOUNDS.opacity), 'Must be a number')
    assert.equal(numberProblem(-0.01, THEME_BOUNDS.opacity), 'Must be between 0 and 1')
  })

  test('every bounded number of the settings and theme is found, at its path', ({ assert }) => {
    const problems = botFieldProblems({
      settings: {
        typingEmulation: { speed: 0, maxDelay: 61, delayBetweenBubbles: 99 },
        whatsApp: { sessionExpiryTimeout: 500 },
        telegram: { sessionExpiryTimeout: 0.001 },
      },
      theme: {
        general: { progressBar: { thickness: 33 } },
        chat: {
          container: { opacity: 7 },
          hostBubbles: { blur: 41, border: { thickness: -1, customRoundeness: 101 } },
        },
      },
    })
    assert.deepEqual(
      problems.map((p) => p.path),
      [
        'settings.typingEmulation.speed',
        'settings.typingEmulation.maxDelay',
        'settings.typingEmulation.delayBetweenBubbles',
        'settings.whatsApp.sessionExpiryTimeout',
        'settings.telegram.sessionExpiryTimeout',
        'theme.general.progressBar.thickness',
        'theme.chat.container.opacity',
        'theme.chat.hostBubbles.blur',
        'theme.chat.hostBubbles.border.thickness',
        'theme.chat.hostBubbles.border.customRoundeness',
      ]
    )
    assert.deepEqual(botFieldProblems({ settings: { whatsApp: null }, theme: 'x' }), [])
    assert.deepEqual(
      botFieldProblems({
        settings: { metadata: { favIconUrl: 'javascript:alert(1)', googleTagManagerId: '' } },
        theme: {
          general: { background: { type: 'Color', content: '#fff' } },
          chat: { guestAvatar: { url: 42 }, container: { maxHeight: '100%' } },
        },
      }),
      [
        {
          path: 'settings.metadata.favIconUrl',
          message: 'Enter a full address starting with http:// or https://',
        },
        {
          path: 'theme.chat.guestAvatar.url',
          message: 'Enter a full address starting with http:// or https://',
        },
      ]
    )
    assert.isAbove(BOT_NUMBER_FIELDS.length, 20)
  })
})
