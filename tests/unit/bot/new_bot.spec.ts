import { test } from '@japa/runner'
import { createBotContent, createId } from '#shared/bot/new_bot'
import { defaultSettings, defaultTheme, resolveSettings, resolveTheme } from '#shared/bot/types'

test.group('New bot content', () => {
  test('createId gives 25 url-safe characters starting with a letter', ({ assert }) => {
    const ids = new Set<string>()
    for (let i = 0; i < 2000; i++) {
      const id = createId()
      assert.match(id, /^[a-z][a-z0-9]{24}$/)
      ids.add(id)
    }
    assert.equal(ids.size, 2000)
  })

  test('createBotContent: default name, one start event, nothing else', ({ assert }) => {
    const bot = createBotContent()
    assert.equal(bot.version, '6')
    assert.equal(bot.name, 'My bot')
    assert.deepEqual(bot.groups, [])
    assert.deepEqual(bot.edges, [])
    assert.deepEqual(bot.variables, [])
    assert.lengthOf(bot.events, 1)
    assert.equal(bot.events[0].type, 'start')
    assert.deepEqual(bot.events[0].graphCoordinates, { x: 0, y: 0 })
    assert.deepEqual(bot.theme, defaultTheme())
    assert.deepEqual(bot.settings, defaultSettings())
    assert.equal(createBotContent({ name: '  Support  ' }).name, 'Support')
    assert.equal(createBotContent({ name: '  ' }).name, 'My bot')
  })

  test('a new bot gets the default settings', ({ assert }) => {
    const settings = defaultSettings()
    assert.deepEqual(settings.general, {
      isBrandingEnabled: false,
      isTypingEmulationEnabled: true,
      isInputPrefillEnabled: false,
      isHideQueryParamsEnabled: true,
      isNewResultOnRefreshEnabled: true,
      rememberUser: { isEnabled: false, storage: 'session' },
    })
    assert.deepEqual(settings.typingEmulation, {
      enabled: true,
      speed: 400,
      maxDelay: 3,
      delayBetweenBubbles: 0,
      isDisabledOnFirstMessage: true,
    })
  })

  test('a new bot gets the default theme', ({ assert }) => {
    const theme = defaultTheme()
    assert.deepEqual(theme.general!.font, { type: 'Google', family: 'Poppins' })
    assert.equal(theme.general!.progressBar!.thickness, 4)
    assert.equal(theme.chat!.container!.maxWidth, '800px')
    assert.equal(theme.chat!.container!.width, '100%')
    // Each call gives a fresh object.
    theme.chat!.container!.maxWidth = '1px'
    assert.equal(defaultTheme().chat!.container!.maxWidth, '800px')
  })

  test('stored partial settings and theme resolve over the defaults', ({ assert }) => {
    const settings = resolveSettings({ typingEmulation: { enabled: false } })
    assert.isFalse(settings.typingEmulation!.enabled)
    assert.equal(settings.typingEmulation!.speed, 400)
    assert.isTrue(settings.general!.isHideQueryParamsEnabled)
    const theme = resolveTheme({ general: { font: 'Open Sans' } })
    assert.equal(theme.general!.font, 'Open Sans')
    assert.equal(theme.general!.progressBar!.thickness, 4)
    assert.deepEqual(resolveTheme(null), defaultTheme())
  })
})
