import { test } from '@japa/runner'
import type { Page } from 'playwright'
import User from '#models/user'
import { CreateBot } from '#actions/bots/create_bot'
import { CreateCredential } from '#actions/credentials/create_credential'
import { CreateWorkflow } from '#actions/workflows/create_workflow'
import { signInWithLink } from '#tests/browser/helpers'
import { nodeOfType, waitFor } from '#tests/browser/workflow_helpers'
import { startOpenAiStandIn } from '#tests/stand_ins/openai'
import { firstWorkspaceOf, setUserPlan, uniqueEmail } from '#tests/helpers'

/**
 * The copilot panel as a builder uses it (docs/copilot.md): in the workflow editor, a
 * request typed in the chat makes a node appear on the canvas, its version card previews
 * the change and Undo takes it away; blank messages are never sent; the same panel builds a
 * bot in the bot editor, where Ctrl+Z (the builder's own undo) leaves the copilot's change.
 * The model is the OpenAI stand-in answering with tool calls.
 */

const KEY = 'sk-copilot-browser'

/** First round: the tool call; second: the answer. */
function twoRounds(call: { name: string; args: Record<string, unknown> }[], text: string) {
  return (body: any) => {
    const messages: any[] = body.messages
    const lastUser = messages.map((m) => m.role).lastIndexOf('user')
    const answered = messages.slice(lastUser + 1).some((m) => m.role === 'tool')
    if (answered) return { content: text }
    return {
      tool_calls: call.map((c, i) => ({
        id: `call_${i}`,
        type: 'function',
        function: { name: c.name, arguments: JSON.stringify(c.args) },
      })),
    }
  }
}

async function builder(page: Page, prefix: string, baseUrl: string) {
  const email = uniqueEmail(prefix)
  await signInWithLink(page, email)
  const user = await User.findByOrFail('email', email)
  await setUserPlan(user, 'UNLIMITED')
  const workspace = await firstWorkspaceOf(user)
  await new CreateCredential().handle(user, workspace, {
    type: 'openai',
    name: 'Stand-in account',
    data: { apiKey: KEY, baseUrl },
  })
  return { user, workspace }
}

test.group('Copilot panel', () => {
  test('workflow editor: a request adds a node, the version previews, Undo removes it', async ({
    visit,
    assert,
    cleanup,
  }) => {
    const standIn = await startOpenAiStandIn({
      apiKey: KEY,
      script: twoRounds(
        [{ name: 'add_node', args: { type: 'webhook-trigger', title: 'From the copilot' } }],
        'I added a webhook trigger.'
      ),
    })
    cleanup(() => standIn.close())
    // A page without the dashboard's bundle first: a busy machine compiles that one slowly.
    const page = await visit('/health')
    page.setDefaultTimeout(120_000)
    page.setDefaultNavigationTimeout(120_000)
    const { user, workspace } = await builder(page, 'copilotwf', standIn.baseUrl)
    const workflow = await new CreateWorkflow().handle(user, workspace, { name: 'Copilot flow' })

    await page.setViewportSize({ width: 1440, height: 900 })
    await page.goto(`/workflows/${workflow.id}`)
    await page.getByTestId('copilot-open').click()
    const panel = page.getByTestId('copilot-panel')
    await panel.getByTestId('copilot-assistant-message').first().waitFor()
    assert.isAbove(await panel.getByTestId('copilot-suggestions').getByRole('button').count(), 0)

    // White space is not a message: Enter sends nothing and the button stays off.
    const input = panel.getByTestId('copilot-input')
    await input.click()
    await page.keyboard.type('   ')
    assert.isTrue(await panel.getByTestId('copilot-send').isDisabled())
    await page.keyboard.press('Enter')
    assert.equal(await panel.getByTestId('copilot-user-message').count(), 0)
    assert.lengthOf(standIn.callsTo('/v1/chat/completions'), 0)

    await input.fill('')
    await page.keyboard.type('Start this workflow from a webhook')
    await page.keyboard.press('Enter')
    await panel.getByTestId('copilot-user-message').first().waitFor()
    const node = nodeOfType(page, 'webhook-trigger')
    await node.waitFor()
    await panel.getByText('I added a webhook trigger.').waitFor()
    const card = panel.getByTestId('copilot-version-card')
    await card.waitFor()
    assert.include(await card.innerText(), 'Version 2')
    assert.include(await node.innerText(), 'From the copilot')
    await page.screenshot({ path: 'tmp/screenshots/copilot-workflow.png' })

    // The preview shows the version's graph on a read-only canvas.
    await card.getByTestId('copilot-preview').click()
    const preview = page.getByTestId('copilot-preview-canvas')
    await preview
      .locator('[data-testid="workflow-node"][data-node-type="webhook-trigger"]')
      .waitFor()
    await page.keyboard.press('Escape')
    await preview.waitFor({ state: 'detached' })

    await card.getByTestId('copilot-undo').click()
    await waitFor(async () => (await node.count()) === 0, 'the node to go')
    assert.equal(await card.getByTestId('copilot-undo').count(), 0)
  }).timeout(400_000)

  test('a failed model call says its cause in the chat, not only "Sorry"', async ({
    visit,
    assert,
    cleanup,
  }) => {
    const standIn = await startOpenAiStandIn({ apiKey: KEY, script: () => ({ content: 'never' }) })
    standIn.failWith(500, { error: { message: 'model overloaded' } })
    cleanup(() => standIn.close())
    const page = await visit('/health')
    page.setDefaultTimeout(120_000)
    page.setDefaultNavigationTimeout(120_000)
    const { user, workspace } = await builder(page, 'copilotcause', standIn.baseUrl)
    const workflow = await new CreateWorkflow().handle(user, workspace, { name: 'Failing model' })

    await page.setViewportSize({ width: 1440, height: 900 })
    await page.goto(`/workflows/${workflow.id}`)
    await page.getByTestId('copilot-open').click()
    const panel = page.getByTestId('copilot-panel')
    const answers = panel.getByTestId('copilot-assistant-message')
    await answers.first().waitFor()
    const before = await answers.count()
    await panel.getByTestId('copilot-input').click()
    await page.keyboard.type('Add a webhook trigger')
    await page.keyboard.press('Enter')
    await waitFor(async () => (await answers.count()) > before, 'the answer')
    const answer = await answers.last().innerText()
    assert.include(answer, 'Sorry')
    assert.include(answer, 'Cause: the model server answered 500: model overloaded')
    assert.isAbove(standIn.callsTo('/v1/chat/completions').length, 0)
  }).timeout(400_000)

  test('bot editor: the same panel adds a group linked to the start', async ({
    visit,
    assert,
    cleanup,
  }) => {
    let groupId = ''
    const standIn = await startOpenAiStandIn({
      apiKey: KEY,
      script: (body: any) => {
        const messages: any[] = body.messages
        const tools = messages.filter((m) => m.role === 'tool')
        if (tools.length === 0) {
          return {
            tool_calls: [
              {
                id: 'call_add',
                type: 'function',
                function: {
                  name: 'add_block',
                  arguments: JSON.stringify({ type: 'email input', groupTitle: 'Ask e-mail' }),
                },
              },
            ],
          }
        }
        if (tools.length === 1) {
          groupId = JSON.parse(tools[0].content).groupId
          return {
            tool_calls: [
              {
                id: 'call_connect',
                type: 'function',
                function: {
                  name: 'connect',
                  arguments: JSON.stringify({ fromStart: true, toGroupId: groupId }),
                },
              },
            ],
          }
        }
        return { content: 'Visitors are now asked for their e-mail.' }
      },
    })
    cleanup(() => standIn.close())
    // A page without the dashboard's bundle first: a busy machine compiles that one slowly.
    const page = await visit('/health')
    page.setDefaultTimeout(120_000)
    page.setDefaultNavigationTimeout(120_000)
    const { user, workspace } = await builder(page, 'copilotbot', standIn.baseUrl)
    const bot = await new CreateBot().handle(user, workspace, { name: 'Copilot bot' })

    await page.setViewportSize({ width: 1440, height: 900 })
    await page.goto(`/bots/${bot.id}/edit`)
    const blocks = page.locator('[data-testid="block-item"]')
    const before = await blocks.count()
    await page.getByTestId('copilot-open').click()
    const panel = page.getByTestId('copilot-panel')
    await panel.getByTestId('copilot-assistant-message').first().waitFor()
    await panel.getByTestId('copilot-input').click()
    await page.keyboard.type('Ask visitors for their e-mail')
    await panel.getByTestId('copilot-send').click()
    await panel.getByText('Visitors are now asked for their e-mail.').waitFor()
    await waitFor(async () => (await blocks.count()) === before + 1, 'the new block')
    assert.lengthOf(standIn.callsTo('/v1/chat/completions'), 3)
    await page.screenshot({ path: 'tmp/screenshots/copilot-bot.png' })

    // Ctrl+Z on the canvas undoes the builder's own edits: the copilot's change is not one
    // (docs/editor.md "The copilot in a shared draft"); the reply's Undo is its undo.
    await page.getByTestId('copilot-close').click()
    await page.locator('.react-flow__pane').click({ position: { x: 700, y: 600 } })
    await page.keyboard.press('Control+z')
    await page.waitForTimeout(1500)
    assert.equal(await blocks.count(), before + 1)
  }).timeout(400_000)
})
