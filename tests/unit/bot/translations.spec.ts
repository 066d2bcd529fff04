import { test } from '@japa/runner'
import { pluginRegistry } from '#services/plugin_registry'
import { formOf } from '#plugins/derive'
import {
  botTexts,
  languagesOf,
  matchLanguage,
  missingTexts,
  parseAcceptLanguage,
  pickLanguage,
  tableOf,
  translateBlock,
} from '#shared/bot/translations'
import type { Block, BotSettings } from '#shared/bot/types'
import { richTextToPlainText } from '#shared/chat/rich_text'

const settings = {
  languages: { default: 'en', others: ['fr', 'pt-br', 'de', 'not a tag'] },
  translations: { fr: { 'b1/options.labels.placeholder': 'Votre réponse' } },
} as BotSettings

test.group('Bot languages | picking the chat language', () => {
  test('the languages are normalised, the default is never an "other"', ({ assert }) => {
    assert.deepEqual(languagesOf(settings), { default: 'en', others: ['fr', 'pt-BR', 'de'] })
    assert.deepEqual(languagesOf({ languages: { others: ['en', 'fr'] } } as BotSettings), {
      default: 'en',
      others: ['fr'],
    })
    assert.isUndefined(languagesOf({}))
  })

  test('Accept-Language is read by weight, then order', ({ assert }) => {
    assert.deepEqual(parseAcceptLanguage('de;q=0.5, fr-CH, fr;q=0.9, *;q=0.1, it;q=0'), [
      'fr-CH',
      'fr',
      'de',
    ])
    assert.deepEqual(parseAcceptLanguage(undefined), [])
  })

  test('same tag, then same base language, then a language name', ({ assert }) => {
    const available = ['en', 'fr', 'pt-BR']
    assert.equal(matchLanguage('FR', available), 'fr')
    assert.equal(matchLanguage('fr-CA', available), 'fr')
    assert.equal(matchLanguage('pt', available), 'pt-BR')
    assert.equal(matchLanguage('pt_br', available), 'pt-BR')
    assert.equal(matchLanguage('Français', available), 'fr')
    assert.equal(matchLanguage('french', available), 'fr')
    assert.isUndefined(matchLanguage('ja', available))
    assert.isUndefined(matchLanguage('', available))
    assert.isUndefined(matchLanguage(42, available))
  })

  test('request, then prefilled variable, then Accept-Language, then the default', ({ assert }) => {
    const pick = (wishes: Parameters<typeof pickLanguage>[1]) => pickLanguage(settings, wishes)
    assert.equal(pick({ requested: 'de', variable: 'fr', acceptLanguage: 'pt-BR' }), 'de')
    assert.equal(pick({ requested: 'ja', variable: 'fr', acceptLanguage: 'pt-BR' }), 'fr')
    assert.equal(pick({ acceptLanguage: 'ja, pt-PT;q=0.8, de;q=0.5' }), 'pt-BR')
    assert.equal(pick({ acceptLanguage: 'ja, zh' }), 'en')
    assert.equal(pick({}), 'en')
    assert.isUndefined(pickLanguage({}, { requested: 'fr' }))
  })

  test('a language without a table, or the default, translates nothing', ({ assert }) => {
    assert.deepEqual(tableOf(settings, 'fr'), { 'b1/options.labels.placeholder': 'Votre réponse' })
    assert.isUndefined(tableOf(settings, 'en'))
    assert.isUndefined(tableOf(settings, 'de'))
    assert.isUndefined(tableOf(settings, 'ja'))
  })
})

test.group('Bot languages | translating blocks', () => {
  const bubble: Block = {
    id: 't1',
    type: 'text',
    content: { html: '<p>Hello</p>', richText: [{ type: 'p', children: [{ text: 'Hello' }] }] },
  }
  const choice: Block = {
    id: 'c1',
    type: 'choice input',
    options: { variableId: 'v1', buttonLabel: 'Send' },
    items: [
      { id: 'i1', content: 'Yes', outgoingEdgeId: 'e1' },
      { id: 'i2', content: 'No' },
    ],
  }

  test('translated texts replace the default ones; the rest and the block stay', ({ assert }) => {
    const table = {
      't1/content.richText': 'Bonjour\nà vous',
      'c1/items.i1.content': 'Oui',
      'c1/items.i2.content': '  ',
      'c1/options.buttonLabel': 'Envoyer',
      'other/options.x': 'ignored',
    }
    const text = translateBlock(bubble, table)
    assert.deepEqual(text.content, {
      richText: [
        { type: 'p', children: [{ text: 'Bonjour' }] },
        { type: 'p', children: [{ text: 'à vous' }] },
      ],
    })
    const translated = translateBlock(choice, table)
    assert.deepEqual(
      translated.items!.map((item) => item.content),
      ['Oui', 'No'],
      'a blank translation falls back to the default'
    )
    assert.equal(translated.items![0].outgoingEdgeId, 'e1')
    assert.deepEqual(translated.options, { variableId: 'v1', buttonLabel: 'Envoyer' })
    // The published block is shared between turns: it is never changed.
    assert.equal(choice.items![0].content, 'Yes')
    assert.equal(richTextToPlainText(bubble.content!.richText as any), 'Hello')
    assert.strictEqual(translateBlock(choice, undefined), choice)
    assert.strictEqual(translateBlock(choice, { 'x/options.a': 'b' }), choice)
  })

  test('the texts to translate come from the manifests, missing ones are listed', async ({
    assert,
  }) => {
    const registry = await pluginRegistry()
    const sourceOf = (type: string) => {
      const plugin = registry.get(type)
      return plugin ? formOf(plugin, 'bot') : undefined
    }
    const bot = {
      groups: [
        {
          id: 'g1',
          title: 'Group',
          graphCoordinates: { x: 0, y: 0 },
          blocks: [
            bubble,
            choice,
            { id: 'n1', type: 'number input', options: { labels: { placeholder: 'Age?' } } },
            { id: 's1', type: 'Set variable', options: { expressionToEvaluate: 'x' } },
          ],
        },
      ],
    }
    const texts = botTexts(bot, sourceOf)
    const keys = texts.map((t) => t.key)
    assert.includeMembers(keys, [
      't1/content.richText',
      'c1/options.buttonLabel',
      'c1/items.i1.content',
      'c1/items.i2.content',
      'n1/options.labels.placeholder',
      // The manifest's default is what the visitor reads when the block leaves it empty.
      'n1/options.labels.button',
    ])
    assert.isFalse(
      keys.some((key) => key.startsWith('s1/')),
      'Set variable shows no text'
    )
    assert.equal(texts.find((t) => t.key === 't1/content.richText')!.source, 'Hello')
    assert.equal(texts.find((t) => t.key === 'n1/options.labels.button')!.source, 'Send')
    const missing = missingTexts(texts, {
      't1/content.richText': 'Bonjour',
      'c1/items.i1.content': ' ',
    }).map((t) => t.key)
    assert.notInclude(missing, 't1/content.richText')
    assert.include(missing, 'c1/items.i1.content')
    // Loading every plugin manifest is slow on a busy machine.
  }).timeout(120_000)
})
