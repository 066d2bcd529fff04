import { test } from '@japa/runner'
import type { Locator, Page } from 'playwright'
import Workflow from '#models/workflow'
import User from '#models/user'
import { appUrl } from '#config/app'
import { closeQueue, startWorkers } from '#queue/queue'
import { signInWithLink } from '#tests/browser/helpers'
import {
  addFromPalette,
  closeSettings,
  drag,
  nodeOfType,
  waitFor,
} from '#tests/browser/workflow_helpers'
import { firstWorkspaceOf, uniqueEmail } from '#tests/helpers'

/*
 * Issues 6 and 7 in the workflow editor: an LLM agent with its Model and Tools plugged in by
 * dragging from its slots (and the "Model required" hint until then), and the URLs nodes
 * are called at (webhook, event, resume) shown in their settings with a copy button.
 */

/** A JSON call with the browser's session (XSRF header from the cookie). */
async function api(page: Page, method: string, url: string, body?: unknown) {
  return page.evaluate(
    async ({ method: verb, url: path, body: payload }) => {
      const token = decodeURIComponent(
        document.cookie
          .split('; ')
          .find((row) => row.startsWith('XSRF-TOKEN='))!
          .slice('XSRF-TOKEN='.length)
      )
      const response = await fetch(path, {
        method: verb,
        headers: {
          'Content-Type': 'application/json',
          'Accept': 'application/json',
          'X-XSRF-TOKEN': token,
        },
        body: payload === undefined ? undefined : JSON.stringify(payload),
      })
      return { status: response.status, body: await response.json().catch(() => null) }
    },
    { method, url, body }
  )
}

async function signedInWorkflow(page: Page, name: string) {
  const email = uniqueEmail('wfagent')
  await signInWithLink(page, email)
  const user = await User.findByOrFail('email', email)
  const workspace = await firstWorkspaceOf(user)
  await page.setViewportSize({ width: 1400, height: 900 })
  const created = await api(page, 'POST', '/api/v1/workflows', { workspaceId: workspace.id, name })
  if (created.status !== 201) throw new Error(`workflow not created: ${created.status}`)
  const workflowId: string = created.body.workflow.id
  return { user, workspace, workflowId }
}

/** The node's settings are open: opens them by clicking the node when they are not. */
async function openSettings(page: Page, node: Locator) {
  const id = await node.getAttribute('data-node-id')
  const panel = page.locator(`[data-testid="node-settings"][data-node-id="${id}"]`)
  if (!(await panel.isVisible())) {
    await node.getByTestId('node-title').click()
    await panel.waitFor()
  }
  return panel
}

test.group('Workflow editor: LLM agent attachments and node URLs', (group) => {
  // The webhook call's run is queued: workers take it so that nothing is left behind.
  group.setup(async () => {
    await startWorkers()
    return () => closeQueue()
  })

  test('an agent with models and tools plugged in by drag (Groq replacing OpenAI, custom and API tools), then published', async ({
    visit,
    assert,
  }) => {
    const page = await visit('/signin')
    const { user, workspace, workflowId } = await signedInWorkflow(page, 'Support agent')

    // The model's credentials, created through the API as a script of the builder would.
    const credential = await api(page, 'POST', '/api/v1/credentials', {
      workspaceId: workspace.id,
      type: 'groq',
      name: 'Groq test key',
      data: { apiKey: 'gsk_test_key' },
    })
    assert.equal(credential.status, 201)
    // The OpenAI model, replaced in the slot by Groq's, stays on the canvas: a node with an
    // account is publishable (docs/plugins.md, "Validation").
    const openaiKey = await api(page, 'POST', '/api/v1/credentials', {
      workspaceId: workspace.id,
      type: 'openai',
      name: 'OpenAI test key',
      data: { apiKey: 'sk-test-key' },
    })
    assert.equal(openaiKey.status, 201)

    await page.goto(`/workflows/${workflowId}`)
    await page.getByTestId('workflow-canvas').waitFor()

    await addFromPalette(page, 'manual-trigger')
    const agent = await addFromPalette(page, 'llm-agent')
    await page.getByTestId('node-form').getByTestId('field-userQuery').fill('{{$input.question}}')

    // The slots carry the manifest's labels; no model yet: the node says so.
    assert.equal(
      await agent.locator('[data-testid="node-slot"][data-slot="model"]').innerText(),
      'Model'
    )
    assert.include(
      await agent.locator('[data-testid="node-slot"][data-slot="tools"]').innerText(),
      'Tools'
    )
    const missing = agent.getByTestId('node-slot-missing')
    await missing.waitFor()
    assert.equal(await missing.innerText(), 'Model required')

    const model = await addFromPalette(page, 'groq')
    const modelForm = page.getByTestId('node-form')
    await modelForm.getByTestId('field-credentialsId').click()
    await page.getByRole('option', { name: 'Groq test key' }).click()
    const tool = await addFromPalette(page, 'custom-tool')
    const toolForm = page.getByTestId('node-form')
    await toolForm.getByTestId('field-name').fill('getWeather')
    await toolForm.getByTestId('field-description').fill('The weather of a city')
    // The code editor (CodeMirror once loaded, a textarea before): clicked and typed into.
    await toolForm.getByTestId('field-functionCode').click()
    await page.keyboard.type("return 'sunny'")
    const openai = await addFromPalette(page, 'openai')
    await page.getByTestId('node-form').getByTestId('field-credentialsId').click()
    await page.getByRole('option', { name: 'OpenAI test key' }).click()
    const apiTool = await addFromPalette(page, 'api-tool')
    await page.getByTestId('node-form').getByTestId('field-name').fill('getOrder')
    await page
      .getByTestId('node-form')
      .getByTestId('field-url')
      .fill('https://shop.example.com/orders/{orderId}')
    await closeSettings(page)
    await page.locator('.react-flow__controls-fitview').click()

    const trigger = nodeOfType(page, 'manual-trigger')
    const [triggerId, agentId, modelId, toolId, apiToolId] = await Promise.all(
      [trigger, agent, model, tool, apiTool].map((node) => node.getAttribute('data-node-id'))
    )

    // Publishing with the model missing is refused with the reason.
    await drag(page, trigger.getByTestId('node-handle-out'), agent.getByTestId('node-handle-in'))
    await waitFor(async () => (await page.locator('.react-flow__edge').count()) === 1, 'edge')
    await page.getByTestId('workflow-publish').click()
    await page.getByText('"LLM agent" needs a Model attachment').first().waitFor()
    await page.screenshot({ path: 'tmp/workflow_agent_missing_model.png' })
    assert.equal((await Workflow.findOrFail(workflowId)).status, 'DRAFT')

    // The models and the tools plugged in from the agent's slot handles: a second model
    // replaces the first (one Model), tools add up.
    await drag(
      page,
      agent.getByTestId('node-handle-slot-model'),
      openai.getByTestId('node-handle-attached')
    )
    await waitFor(async () => (await page.locator('.react-flow__edge').count()) === 2, 'model')
    await missing.waitFor({ state: 'detached' })
    await drag(
      page,
      agent.getByTestId('node-handle-slot-model'),
      model.getByTestId('node-handle-attached')
    )
    await waitFor(async () => {
      const doc = await page.locator('.react-flow__edge').count()
      const panel = await openSettings(page, agent)
      const text = await panel.locator('[data-output="slot:model"]').innerText()
      return doc === 2 && text.includes('Groq') && !text.includes('OpenAI')
    }, 'the Groq model replacing the OpenAI one')
    await closeSettings(page)
    await drag(
      page,
      agent.getByTestId('node-handle-slot-tools'),
      tool.getByTestId('node-handle-attached')
    )
    await waitFor(async () => (await page.locator('.react-flow__edge').count()) === 3, 'tool')
    await drag(
      page,
      agent.getByTestId('node-handle-slot-tools'),
      apiTool.getByTestId('node-handle-attached')
    )
    await waitFor(async () => (await page.locator('.react-flow__edge').count()) === 4, 'API tool')

    // A tool dragged onto the Model slot is refused: no fourth edge.
    await drag(
      page,
      agent.getByTestId('node-handle-slot-model'),
      tool.getByTestId('node-handle-attached')
    )
    await new Promise((r) => setTimeout(r, 300))
    assert.equal(await page.locator('.react-flow__edge').count(), 4)

    // The agent's settings list what is plugged in each slot.
    const panel = await openSettings(page, agent)
    assert.include(await panel.locator('[data-output="slot:model"]').innerText(), 'Groq')
    assert.include(await panel.locator('[data-output="slot:tools"]').innerText(), 'Custom tool')
    assert.include(await panel.locator('[data-output="slot:tools"]').innerText(), 'API tool')
    await closeSettings(page)

    await page.getByTestId('workflow-publish').click()
    await page.locator('[data-testid="workflow-status"][data-status="PUBLISHED"]').waitFor()

    const saved = await Workflow.findOrFail(workflowId)
    assert.equal(saved.status, 'PUBLISHED')
    const attachments = saved.edges
      .filter((edge) => edge.isAttachment)
      .map((edge) => [edge.from.blockId, edge.attachmentName, edge.to.blockId])
      .sort()
    assert.deepEqual(
      attachments,
      [
        [agentId, 'model', modelId],
        [agentId, 'tools', toolId],
        [agentId, 'tools', apiToolId],
      ].sort()
    )
    const plain = saved.edges.filter((edge) => !edge.isAttachment)
    assert.deepEqual(
      plain.map((edge) => [edge.from.blockId, edge.to.blockId]),
      [[triggerId, agentId]]
    )
    const savedModel = saved.blocks.find((block) => block.id === modelId)!
    assert.equal(savedModel.options?.credentialsId, credential.body.id)
    assert.equal(saved.blocks.find((block) => block.id === toolId)!.options?.name, 'getWeather')

    // The slot labels come from the plugin's locale files: in French, its fr.json.
    user.preferredLanguage = 'fr'
    await user.save()
    await page.reload()
    const frenchAgent = nodeOfType(page, 'llm-agent')
    const modelSlot = frenchAgent.locator('[data-testid="node-slot"][data-slot="model"]')
    await waitFor(async () => (await modelSlot.innerText()) === 'Modèle', 'the French slot label')
    assert.include(
      await frenchAgent.locator('[data-testid="node-slot"][data-slot="tools"]').innerText(),
      'Outils'
    )
    // Unplugging the model brings the hint back, in French too.
    await openSettings(page, frenchAgent)
    await page.locator('[data-output="slot:model"]').getByTestId('node-connection-remove').click()
    await frenchAgent.getByTestId('node-slot-missing').waitFor()
    assert.equal(await frenchAgent.getByTestId('node-slot-missing').innerText(), 'Modèle requis')
    // A disabled agent is left out of the published workflow: nothing is required of it.
    await closeSettings(page)
    await frenchAgent.getByTestId('node-menu').click()
    await page.getByTestId('node-toggle').click()
    await frenchAgent.getByTestId('node-slot-missing').waitFor({ state: 'detached' })
  })

  test('the webhook trigger shows its URL, copies it, and the URL starts a run', async ({
    visit,
    browserContext,
    assert,
  }) => {
    await browserContext.grantPermissions(['clipboard-read', 'clipboard-write'])
    const page = await visit('/signin')
    const { workflowId } = await signedInWorkflow(page, 'Inbound orders')
    await page.goto(`/workflows/${workflowId}`)
    await page.getByTestId('workflow-canvas').waitFor()

    await addFromPalette(page, 'webhook-trigger')
    const expected = `${appUrl}/api/v1/workflows/${workflowId}/webhook`
    const panel = page.getByTestId('node-url')
    await panel.waitFor()
    assert.equal(await panel.getAttribute('data-kind'), 'webhook')
    assert.equal(await panel.getByTestId('node-url-value').innerText(), expected)
    assert.equal(
      await panel.getByTestId('node-url-call').innerText(),
      `curl -X POST '${expected}' -H 'Content-Type: application/json' -d '{}'`
    )

    // The secret and the method go into the example call as the builder types them.
    await page.getByTestId('node-form').getByTestId('field-secret').fill('s3cret')
    await waitFor(
      async () =>
        (await panel.getByTestId('node-url-call').innerText()).includes(
          "-H 'X-Webhook-Secret: s3cret'"
        ),
      'the secret in the example call'
    )

    await panel.getByTestId('node-url-copy').click()
    await page.getByText('Copied to the clipboard').first().waitFor()
    await page.screenshot({ path: 'tmp/workflow_webhook_url.png' })
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), expected)
    await panel.getByTestId('node-url-copy-call').click()
    assert.include(await page.evaluate(() => navigator.clipboard.readText()), 'X-Webhook-Secret')

    // The URL shown is the one that starts the run, with the secret.
    await closeSettings(page)
    await page.getByTestId('workflow-publish').click()
    await page.locator('[data-testid="workflow-status"][data-status="PUBLISHED"]').waitFor()
    await page.getByTestId('workflow-active').click()
    await page.locator('[data-testid="workflow-active"][data-state="checked"]').waitFor()
    await waitFor(async () => !!(await Workflow.findOrFail(workflowId)).isActive, 'activation')
    const refused = await fetch(expected, { method: 'POST', body: '{}' })
    assert.equal(refused.status, 401)
    const accepted = await fetch(expected, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Webhook-Secret': 's3cret' },
      body: '{}',
    })
    assert.equal(accepted.status, 202)
    assert.isString(((await accepted.json()) as { runId?: string }).runId)
  })

  test('event triggers and waits resumed by a call show their URLs and hints', async ({
    visit,
    assert,
  }) => {
    const page = await visit('/signin')
    const { workflowId } = await signedInWorkflow(page, 'Slack helper')
    await page.goto(`/workflows/${workflowId}`)
    await page.getByTestId('workflow-canvas').waitFor()

    const slack = await addFromPalette(page, 'slack-trigger')
    const slackId = await slack.getAttribute('data-node-id')
    const panel = page.getByTestId('node-url')
    assert.equal(await panel.getAttribute('data-kind'), 'event')
    assert.equal(
      await panel.getByTestId('node-url-value').innerText(),
      `${appUrl}/api/v1/workflows/${workflowId}/events/${slackId}`
    )
    assert.include(
      await panel.getByTestId('node-url-hint').innerText(),
      "Slack app's Event Subscriptions"
    )
    // Events are posted by the service: no example call to copy.
    assert.equal(await panel.getByTestId('node-url-call').count(), 0)

    // A wait shows its resume URL only while it waits for a call.
    await addFromPalette(page, 'Wait')
    assert.equal(await page.getByTestId('node-url').count(), 0)
    await page.getByTestId('node-form').getByTestId('field-resume').click()
    await page.getByRole('option', { name: 'On a webhook call' }).click()
    await page.getByTestId('node-url').waitFor()
    assert.equal(await page.getByTestId('node-url').getAttribute('data-kind'), 'resume')
    assert.equal(
      await page.getByTestId('node-url-value').innerText(),
      `${appUrl}/api/v1/workflows/${workflowId}/webhook/runs/{runId}`
    )
  })
})
