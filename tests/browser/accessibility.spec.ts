import { test } from '@japa/runner'
import type { Page } from 'playwright'
import { AxeBuilder } from '@axe-core/playwright'
import Bot from '#models/bot'
import User from '#models/user'
import { CreateBot } from '#actions/bots/create_bot'
import { PublishBot } from '#actions/bots/publish_bot'
import { CreateBotFromTemplate } from '#actions/bots/create_bot_from_template'
import { CreateWorkflow } from '#actions/workflows/create_workflow'
import { CreateStore } from '#actions/knowledge/create_store'
import { signInWithLink } from '#tests/browser/helpers'
import { firstWorkspaceOf, setUserPlan, uniqueEmail } from '#tests/helpers'

/*
 * Every main page of the app passes axe-core's WCAG 2.1 A and AA rules (issue 28): the
 * dashboard, workflows, vectors, settings, results, plans, both editors and the public chat;
 * then the rest: the sign-in pages, new bot and import, the bot's theme, settings and
 * analytics, a vector store, a workflow's runs, the docs and the admin pages.
 * A violation is listed with its rule and the elements it found, so that a failure says
 * which component to fix.
 */

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']

async function violationsOf(page: Page) {
  const results = await new AxeBuilder({ page })
    // A WCAG 2.1 A rule (2.5.3, label in name) that axe ships as experimental, so off
    // unless asked for: a control's name must contain the text it shows.
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
    .withTags(WCAG_TAGS)
    .analyze()
  return results.violations.map(
    (violation) =>
      `${violation.id} (${violation.nodes.length}): ${violation.nodes
        .slice(0, 3)
        .map((node) => `${node.target.join(' ')} ${node.html.slice(0, 160)}`)
        .join(' | ')}`
  )
}

/** Blocks enough to make a long editor page: the quiz template and groups of common blocks. */
async function fortyBlockBot(user: User) {
  const workspace = await firstWorkspaceOf(user)
  const created = await new CreateBotFromTemplate().handle(user, workspace, {
    templateId: 'quiz',
  })
  const bot = await Bot.findOrFail(created.id)
  const count = bot.groups.reduce((sum, group) => sum + group.blocks.length, 0)
  const extra = Array.from({ length: Math.max(0, 40 - count) }, (_, index) => index)
  const groups = [0, 1, 2, 3].map((g) => ({
    id: `a11y-group-${g}`,
    title: `Extra ${g + 1}`,
    graphCoordinates: { x: 2000 + g * 400, y: 0 },
    blocks: extra
      .filter((index) => index % 4 === g)
      .map((index) =>
        index % 2 === 0
          ? {
              id: `a11y-block-${index}`,
              type: 'text',
              content: { richText: [{ type: 'p', children: [{ text: `Message ${index}` }] }] },
            }
          : { id: `a11y-block-${index}`, type: 'text input', options: {} }
      ),
  }))
  bot.groups = [...bot.groups, ...groups.filter((group) => group.blocks.length > 0)] as any
  await bot.save()
  return bot
}

test.group('Accessibility', () => {
  test('every main page has no WCAG 2.1 A or AA violation (axe-core)', async ({
    visit,
    assert,
  }) => {
    const email = uniqueEmail('a11y')
    const page = await visit('/signin')
    await page.setViewportSize({ width: 1440, height: 900 })
    await signInWithLink(page, email)
    const user = await User.findByOrFail('email', email)
    await setUserPlan(user, 'UNLIMITED')
    const workspace = await firstWorkspaceOf(user)
    const simple = await new CreateBot().handle(user, workspace, { name: 'Greeter' })
    const large = await fortyBlockBot(user)
    const workflow = await new CreateWorkflow().handle(user, workspace, {})
    const published = await Bot.findOrFail(simple.id)
    await new PublishBot().handle(user, workspace, published)

    const pages: [string, string, (page: Page) => Promise<unknown>][] = [
      ['dashboard', '/bots', (p) => p.getByText('Greeter').first().waitFor()],
      ['workflows', '/workflows', (p) => p.locator('#app *').first().waitFor()],
      ['vectors', '/vectors', (p) => p.locator('#app *').first().waitFor()],
      ['plans', '/bots/plans', (p) => p.locator('#app *').first().waitFor()],
      ...[
        'account/profile',
        'account/preferences',
        'account/security',
        'account/keys',
        'account/credentials',
        'account/billing',
        'workspace/setting',
        'workspace/member',
      ].map(
        (tab) =>
          [
            `settings ${tab}`,
            `/settings/${tab}`,
            (p: Page) => p.getByRole('dialog').first().waitFor(),
          ] as [string, string, (page: Page) => Promise<unknown>]
      ),
      ['results', `/bots/${simple.id}/results`, (p) => p.locator('#app *').first().waitFor()],
      [
        'bot editor (40 blocks)',
        `/bots/${large.id}/edit`,
        (p) => p.locator('[data-testid="group-node"]').nth(4).waitFor(),
      ],
      [
        'workflow editor',
        `/workflows/${workflow.id}`,
        (p) => p.locator('.react-flow').first().waitFor(),
      ],
      ['public bot', `/${published.publicId}`, (p) => p.getByText(/./).first().waitFor()],
    ]

    const found: Record<string, string[]> = {}
    for (const [name, path, ready] of pages) {
      await page.goto(path)
      await ready(page)
      // Lazy panels and fonts settle before the scan (contrast reads the final colours).
      await page.waitForLoadState('networkidle')
      const violations = await violationsOf(page)
      if (violations.length > 0) found[name] = violations
    }
    assert.deepEqual(found, {})
  }).timeout(600_000)
  test('the other pages pass too: sign-in, bot tabs, analytics, a store, runs, docs, admin', async ({
    visit,
    assert,
  }) => {
    type Entry = [string, string, (page: Page) => Promise<unknown>]
    const ready = (p: Page) => p.locator('main, #app *').first().waitFor()
    const page = await visit('/health')
    await page.setViewportSize({ width: 1440, height: 900 })
    const found: Record<string, string[]> = {}
    const scan = async (entries: Entry[]) => {
      for (const [name, path, isReady] of entries) {
        await page.goto(path)
        await isReady(page)
        await page.waitForLoadState('networkidle')
        const violations = await violationsOf(page)
        if (violations.length > 0) found[name] = violations
      }
    }

    // Signed out.
    await scan([
      ['sign-in', '/signin', ready],
      ['register', '/register', ready],
      ['forgot password', '/forgot-password', ready],
    ])

    const email = uniqueEmail('a11y-more')
    await signInWithLink(page, email)
    const user = await User.findByOrFail('email', email)
    await setUserPlan(user, 'UNLIMITED')
    const workspace = await firstWorkspaceOf(user)
    const bot = await new CreateBot().handle(user, workspace, { name: 'Greeter' })
    const workflow = await new CreateWorkflow().handle(user, workspace, {})
    const store = await new CreateStore().handle(user, workspace, { name: 'Handbook' })
    await scan([
      ['new bot', '/bots/create', ready],
      ['typebot import', '/bots/import-typebot', ready],
      ['bot theme', `/bots/${bot.id}/theme`, ready],
      ['bot settings', `/bots/${bot.id}/settings`, ready],
      ['analytics', `/bots/${bot.id}/results/analytics`, ready],
      ['vector store', `/vectors/${store.id}`, ready],
      ['workflow runs', `/workflows/${workflow.id}/runs`, ready],
      ['docs', '/docs', ready],
    ])

    // The instance admin's pages (ADMIN_EMAILS in .env.test).
    await signInWithLink(page, 'admin@example.com')
    await scan([
      ['admin workspaces', '/admin/workspaces', ready],
      ['admin plugins', '/admin/plugins', ready],
      ['admin AI prices', '/admin/ai-prices', ready],
    ])
    assert.deepEqual(found, {})
  }).timeout(600_000)
})
