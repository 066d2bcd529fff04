import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import Bot from '#models/bot'
import { CreateBot } from '#actions/bots/create_bot'
import { PublishBot } from '#actions/bots/publish_bot'
import { importBot } from '#shared/bot/parse'
import { signInWithLink } from '#tests/browser/helpers'
import { createUser, firstWorkspaceOf, setUserPlan, uniqueEmail } from '#tests/helpers'

async function waitFor<T>(read: () => Promise<T | undefined | null>, what: string): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = await read()
    if (value) return value
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`timed out waiting for ${what}`)
}

const privateUploadBot = {
  version: '6',
  name: 'Private uploads',
  groups: [
    {
      id: 'g1',
      title: 'Documents',
      graphCoordinates: { x: 0, y: 0 },
      blocks: [
        {
          id: 'b_intro',
          type: 'text',
          content: { richText: [{ type: 'p', children: [{ text: 'Send your ID' }] }] },
        },
        { id: 'b_id', type: 'file input', options: { visibility: 'Private' } },
        {
          id: 'b_thanks',
          type: 'text',
          content: { richText: [{ type: 'p', children: [{ text: 'Thanks' }] }] },
        },
      ],
    },
  ],
  events: [{ id: 'start', type: 'start', graphCoordinates: { x: 0, y: 0 }, outgoingEdgeId: 'e1' }],
  edges: [{ id: 'e1', from: { eventId: 'start' }, to: { groupId: 'g1' } }],
  variables: [],
  theme: {},
  settings: {},
}

test.group('Private files in the browser', () => {
  test("a visitor's private file reaches the builder's results tab and nobody else", async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('private-files')
    const user = await createUser({ email })
    await setUserPlan(user, 'UNLIMITED')
    const workspace = await firstWorkspaceOf(user)
    const bot = await new CreateBot().handle(user, workspace, {
      content: importBot(privateUploadBot),
    })
    await new PublishBot().handle(user, workspace, bot)
    const publicId = (await Bot.findOrFail(bot.id)).publicId!

    // The visitor uploads through the file input, as a person does.
    const page = await visit(`/${publicId}`)
    await page.emulateMedia({ reducedMotion: 'reduce' })
    await page.getByText('Send your ID').waitFor()
    // A single file uploads as soon as it is chosen.
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.getByRole('button', { name: /Click to upload/ }).click(),
    ])
    await chooser.setFiles({
      name: 'passport.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('private bytes'),
    })
    await page.getByText('Thanks').waitFor()

    const answer = await waitFor(
      () => db.from('answers').where('block_id', 'b_id').orderBy('id', 'desc').first(),
      'the saved answer'
    )
    const stored = String(answer.content)
    assert.match(new URL(stored).pathname, /^\/storage\/private\/workspaces\//)
    // Whoever holds the stored link without a session (the visitor, anyone it leaks to).
    const anonymous = await page.request.get(stored)
    assert.equal(anonymous.status(), 403)
    assert.notInclude(await anonymous.text(), 'private bytes')

    // The builder opens it from the results tab.
    await signInWithLink(page, email)
    await page.setViewportSize({ width: 1440, height: 900 })
    await page.goto(`/bots/${bot.id}/results`)
    await page.getByTestId('results-table').waitFor()
    const link = page.getByTestId('result-row').first().locator('a', { hasText: 'passport.txt' })
    await link.waitFor()
    assert.notInclude(await link.innerText(), 'signature')
    const href = (await link.getAttribute('href'))!
    assert.match(href, /\?signature=/)

    // On the visible start of the link: the cell truncates it.
    const [opened] = await Promise.all([
      page.context().waitForEvent('page'),
      link.click({ position: { x: 20, y: 8 } }),
    ])
    await opened.waitForLoadState()
    assert.equal((await opened.locator('body').innerText()).trim(), 'private bytes')
    await opened.close()

    // The signed link works without the builder's cookies, until it expires.
    const bare = await fetch(href)
    assert.equal(bare.status, 200)
    assert.equal(await bare.text(), 'private bytes')
  })
})
