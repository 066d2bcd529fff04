import { test } from '@japa/runner'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, Page } from 'playwright'
import Bot from '#models/bot'
import User from '#models/user'
import { CreateBot } from '#actions/bots/create_bot'
import { PublishBot } from '#actions/bots/publish_bot'
import { importBot } from '#shared/bot/parse'
import { CreateCredential } from '#actions/credentials/create_credential'
import { startOpenAiStandIn } from '#tests/stand_ins/openai'
import { signInWithLink } from '#tests/browser/helpers'
import { firstWorkspaceOf, publishThroughApi, uniqueEmail } from '#tests/helpers'
import { chatFixture } from '#tests/unit/engine/fixtures'

/**
 * One bot in three languages (docs/editor.md "Languages"): the public page speaks the
 * browser's language (Accept-Language from the browser context's locale) with the default
 * where a text has no translation; the flow's Languages panel lists the missing texts, takes
 * a typed translation and opens a block on click.
 */

async function waitFor(check: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 300; i++) {
    if (await check()) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`timed out waiting for ${what}`)
}

/** A page in a browser context of its own whose browser speaks `locale`. */
async function pageIn(browser: Browser, locale: string) {
  const context = await browser.newContext({
    baseURL: `http://127.0.0.1:${process.env.PORT}`,
    locale,
    viewport: { width: 1280, height: 720 },
  })
  // Pages are slow to load on a busy machine.
  context.setDefaultTimeout(120_000)
  return { context, page: await context.newPage() }
}

test.group('Bot languages: the public chat page', () => {
  test('the visitor’s browser language picks the texts; the default fills the gaps', async ({
    visit,
    client,
    browserContext,
  }) => {
    browserContext.setDefaultTimeout(120_000)
    const publicId = await publishThroughApi(client, chatFixture('languages').bot)
    const first = await visit('/')
    const browser = first.context().browser()!
    const cases = [
      {
        locale: 'fr-FR',
        greeting: 'Choisissez une offre.',
        button: 'Gratuit',
        placeholder: 'Votre âge',
        goodbye: 'Merci, au revoir.',
      },
      {
        locale: 'de-DE',
        greeting: 'Wähle einen Tarif.',
        button: 'Kostenlos',
        // No German placeholder or goodbye: the English ones.
        placeholder: 'Your age',
        goodbye: 'Thanks, goodbye.',
      },
      {
        locale: 'ja-JP',
        greeting: 'Pick a plan.',
        button: 'Free',
        placeholder: 'Your age',
        goodbye: 'Thanks, goodbye.',
      },
    ]
    for (const expected of cases) {
      const { context, page } = await pageIn(browser, expected.locale)
      try {
        await page.goto(`/${publicId}`)
        await page.getByText(expected.greeting).waitFor()
        await page.getByRole('button', { name: expected.button, exact: true }).click()
        const field = page.getByPlaceholder(expected.placeholder)
        await field.waitFor()
        await field.click()
        await page.keyboard.type('42')
        await page.keyboard.press('Enter')
        await page.getByText(expected.goodbye).waitFor()
      } finally {
        await context.close()
      }
    }
  }).timeout(600_000)
})

test.group('Bot languages: the `lang` parameter of the page and the embeds', () => {
  test('?lang picks the language over the browser’s; an unknown one falls back', async ({
    visit,
    client,
    assert,
    browserContext,
    cleanup,
  }) => {
    browserContext.setDefaultTimeout(120_000)
    const publicId = await publishThroughApi(client, chatFixture('languages').bot)
    const first = await visit('/')
    const browser = first.context().browser()!
    const cases = [
      // The address's language wins over the browser's.
      { locale: 'de-DE', query: '?lang=fr', greeting: 'Choisissez une offre.', button: 'Gratuit' },
      // A language the bot does not speak: the browser's language picks.
      { locale: 'de-DE', query: '?lang=it', greeting: 'Wähle einen Tarif.', button: 'Kostenlos' },
      // Neither spoken: the default.
      { locale: 'ja-JP', query: '?lang=xx', greeting: 'Pick a plan.', button: 'Free' },
      // No parameter: the browser's language.
      { locale: 'fr-FR', query: '', greeting: 'Choisissez une offre.', button: 'Gratuit' },
    ]
    for (const expected of cases) {
      const { context, page } = await pageIn(browser, expected.locale)
      try {
        const starts: string[] = []
        page.on('request', (request) => {
          if (request.url().endsWith('/startChat')) starts.push(request.postData() ?? '')
        })
        await page.goto(`/${publicId}${expected.query}`)
        await page.getByText(expected.greeting).waitFor()
        await page.getByRole('button', { name: expected.button, exact: true }).waitFor()
        // The page's early start asked the same as the chat would: one start, not two.
        assert.lengthOf(starts, 1, expected.query)
        assert.equal(
          JSON.parse(starts[0]).language,
          expected.query ? expected.query.slice('?lang='.length) : undefined
        )
      } finally {
        await context.close()
      }
    }

    // The embeds pass their language option (or the element's attribute) to the page.
    const { context, page } = await pageIn(browser, 'ja-JP')
    try {
      const origin = `http://127.0.0.1:${process.env.PORT}`
      const site = createServer((_, response) => {
        response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
        response.end(`<!doctype html><html><body>
          <flowcraft-standard public-id=${JSON.stringify(publicId)} language="de" style="height: 400px"></flowcraft-standard>
          <div id="inline" style="height: 400px"></div>
          <script src="${origin}/embed.js"></script>
          <script>Flowcraft.initStandard({ publicId: ${JSON.stringify(publicId)}, element: '#inline', language: 'fr' })</script>
          </body></html>`)
      })
      await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
      cleanup(() => {
        site.close()
      })
      await page.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}/`)
      await page.frameLocator('flowcraft-standard iframe').getByText('Wähle einen Tarif.').waitFor()
      await page.frameLocator('#inline iframe').getByText('Choisissez une offre.').waitFor()
    } finally {
      await context.close()
    }
  }).timeout(600_000)
})

test.group('Bot languages: the Languages panel of the flow', () => {
  test('lists the missing texts, takes a typed translation, adds a language, opens a block', async ({
    visit,
    assert,
    browserContext,
  }) => {
    browserContext.setDefaultTimeout(120_000)
    const email = uniqueEmail('langs')
    const page: Page = await visit('/signin')
    await signInWithLink(page, email)
    const user = await User.findByOrFail('email', email)
    const created = await new CreateBot().handle(user, await firstWorkspaceOf(user), {
      name: 'Languages',
    })
    const stored = await Bot.findOrFail(created.id)
    stored.groups = [
      {
        id: 'g1',
        title: 'Group #1',
        graphCoordinates: { x: 620, y: 80 },
        blocks: [
          {
            id: 't1',
            type: 'text',
            content: { richText: [{ type: 'p', children: [{ text: 'Hi there' }] }] },
          },
          { id: 'ti', type: 'text input', options: { labels: { placeholder: 'Your name' } } },
        ],
      },
    ]
    stored.settings = {
      ...stored.settings,
      languages: { default: 'en', others: ['fr'] },
      translations: { fr: { 't1/content.richText': 'Salut' } },
    } as any
    await stored.save()

    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto(`/bots/${created.id}/edit`)
    await page.getByTestId('languages-open').click()
    const panel = page.getByTestId('languages-panel')
    await panel.waitFor()
    // The bubble is translated; the input's placeholder and button label are not.
    await panel.getByText('2 texts missing in French').waitFor()
    const fields = panel.getByTestId('languages-translation')
    assert.equal(await fields.count(), 2)
    assert.equal(await fields.first().getAttribute('placeholder'), 'Your name')
    assert.equal(await fields.nth(1).getAttribute('placeholder'), 'Send')

    await fields.first().click()
    await page.keyboard.type('Votre nom')
    await panel.getByText('1 text missing in French').waitFor()
    // The typed field stays in the list while it is being written.
    assert.equal(await fields.count(), 2)

    // A second language, typed and added with Enter: everything is missing there.
    await panel.getByTestId('languages-add-input').click()
    await page.keyboard.type('de')
    await page.keyboard.press('Enter')
    await panel.getByText('3 texts missing in German').waitFor()
    await panel.getByTestId('languages-tab-fr').click()
    await panel.getByText('1 text missing in French').waitFor()

    // A click on a missing text opens its block.
    await panel.getByTestId('languages-go-to-block').first().click()
    await page.getByTestId('block-settings').waitFor()

    await waitFor(async () => {
      const saved = await Bot.findOrFail(created.id)
      const settings = saved.settings as any
      return (
        settings.translations?.fr?.['ti/options.labels.placeholder'] === 'Votre nom' &&
        settings.languages?.others?.includes('de')
      )
    }, 'the translation and the new language saved')
    const saved = (await Bot.findOrFail(created.id)).settings as any
    assert.deepEqual(saved.languages, { default: 'en', others: ['fr', 'de'] })
    assert.equal(saved.translations.fr['t1/content.richText'], 'Salut')
  }).timeout(600_000)
})

test.group('Bot languages: drafting with AI', () => {
  test('Draft with AI: an error without a credential, then drafted texts to review and undo', async ({
    visit,
    assert,
    browserContext,
    cleanup,
  }) => {
    browserContext.setDefaultTimeout(120_000)
    const standIn = await startOpenAiStandIn({
      apiKey: 'drafts-key',
      // Each text "translated" by a tag, so the drafts are recognisable.
      reply: (body: any) => {
        const user = body.messages.find((m: any) => m.role === 'user')
        const texts = JSON.parse(user.content) as Record<string, string>
        return JSON.stringify(
          Object.fromEntries(Object.entries(texts).map(([k, v]) => [k, `FR ${v}`]))
        )
      },
    })
    cleanup(() => standIn.close())
    const email = uniqueEmail('langsai')
    const page: Page = await visit('/signin')
    await signInWithLink(page, email)
    const user = await User.findByOrFail('email', email)
    const workspace = await firstWorkspaceOf(user)
    const created = await new CreateBot().handle(user, workspace, { name: 'Drafts' })
    const stored = await Bot.findOrFail(created.id)
    stored.groups = [
      {
        id: 'g1',
        title: 'Group #1',
        graphCoordinates: { x: 620, y: 80 },
        blocks: [
          {
            id: 't1',
            type: 'text',
            content: { richText: [{ type: 'p', children: [{ text: 'Hi there' }] }] },
          },
          { id: 'ti', type: 'text input', options: { labels: { placeholder: 'Your name' } } },
        ],
      },
    ]
    stored.settings = {
      ...stored.settings,
      languages: { default: 'en', others: ['fr'] },
      translations: { fr: { 'ti/options.labels.button': 'Envoyer' } },
    } as any
    await stored.save()

    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto(`/bots/${created.id}/edit`)
    await page.getByTestId('languages-open').click()
    const panel = page.getByTestId('languages-panel')
    await panel.getByText('2 texts missing in French').waitFor()
    const draft = panel.getByRole('button', { name: 'Draft French with AI' })

    // No AI credential yet: the builder is told what to add.
    await draft.click()
    const error = panel.getByTestId('languages-draft-error')
    await error.waitFor()
    assert.match(await error.innerText(), /Credentials to draft translations with AI/)

    await new CreateCredential().handle(user, workspace, {
      type: 'openai',
      name: 'My OpenAI',
      data: { apiKey: 'drafts-key', baseUrl: standIn.baseUrl },
    })
    // Reached with the keyboard: focused, then Enter.
    await draft.focus()
    await page.keyboard.press('Enter')
    await panel.getByText('2 texts drafted').waitFor()
    const fields = panel.getByTestId('languages-translation')
    assert.equal(await fields.count(), 2)
    assert.equal(await fields.first().inputValue(), 'FR Hi there')
    assert.equal(await fields.nth(1).inputValue(), 'FR Your name')
    assert.equal(await panel.getByTestId('languages-ai-draft').count(), 2)
    await panel.getByText('0 texts missing in French').waitFor()
    // The typed button label was not sent: only missing texts go to the AI.
    const sent = standIn.callsTo('/v1/chat/completions').at(-1)!.json
    assert.notInclude(sent.messages[1].content, 'ti/options.labels.button')

    // Reviewed: an edit clears the mark on that text only.
    await fields.nth(1).click()
    await page.keyboard.press('End')
    await page.keyboard.type('!')
    assert.equal(await panel.getByTestId('languages-ai-draft').count(), 1)
    await waitFor(async () => {
      const saved = (await Bot.findOrFail(created.id)).settings as any
      return saved.translations?.fr?.['ti/options.labels.placeholder'] === 'FR Your name!'
    }, 'the drafts saved')
    const saved = (await Bot.findOrFail(created.id)).settings as any
    assert.equal(saved.translations.fr['t1/content.richText'], 'FR Hi there')
    assert.equal(saved.translations.fr['ti/options.labels.button'], 'Envoyer')

    // Undo takes back the edit, then every draft at once.
    await page.getByTestId('undo').click()
    await page.getByTestId('undo').click()
    await panel.getByText('2 texts missing in French').waitFor()
    assert.equal(await fields.first().inputValue(), '')
  }).timeout(600_000)
})

test.group('Bot languages: the results tab', () => {
  test('the Language column names each chat’s language', async ({
    visit,
    assert,
    browserContext,
  }) => {
    browserContext.setDefaultTimeout(120_000)
    const email = uniqueEmail('langsresults')
    const page: Page = await visit('/signin')
    await signInWithLink(page, email)
    const user = await User.findByOrFail('email', email)
    const workspace = await firstWorkspaceOf(user)
    const bot = await new CreateBot().handle(user, workspace, {
      content: importBot({ ...chatFixture('languages').bot, id: 'langsresultsb' }),
    })
    await new PublishBot().handle(user, workspace, bot)
    const publicId = (await Bot.findOrFail(bot.id)).publicId!
    for (const language of ['de', 'fr']) {
      const start = await page.request.post(`/api/v1/typebots/${publicId}/startChat`, {
        data: { language },
      })
      assert.isTrue(start.ok(), await start.text())
      // An answer: results without one are hidden by default.
      const { sessionId, input } = await start.json()
      const reply = await page.request.post(`/api/v1/sessions/${sessionId}/continueChat`, {
        data: { message: input.items[0].content },
      })
      assert.isTrue(reply.ok(), await reply.text())
    }

    await page.setViewportSize({ width: 1280, height: 720 })
    await page.goto(`/bots/${bot.id}/results`)
    await page.getByTestId('results-table').waitFor()
    await waitFor(async () => (await page.getByTestId('result-row').count()) === 2, 'two rows')
    const headers = await page.getByTestId('results-column-header').allInnerTexts()
    assert.equal(headers.at(-1), 'Language')
    // Newest first, named in the interface language.
    assert.deepEqual(await page.getByTestId('result-language').allInnerTexts(), [
      'French (fr)',
      'German (de)',
    ])
  }).timeout(600_000)
})
