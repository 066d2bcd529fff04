import { test } from '@japa/runner'
import DevMail from '#models/dev_mail'
import { pluginRegistry } from '#services/plugin_registry'
import { setPluginEnabled } from '#services/marketplace'
import { runNodeWith } from '#services/workflows/executor_ports'
import type { NodeRunRequest, RunVariable } from '#engine/workflow/ports'
import type { WorkflowBlock } from '#shared/workflow/types'
import { createUser, firstWorkspaceOf, uniqueEmail } from '#tests/helpers'

/**
 * Workflow nodes through the server's ports (marketplace check, runner context with the
 * workflow part): those that need the database.
 */

async function request(
  type: string,
  options: Record<string, unknown>,
  extra: { input?: unknown; variables?: RunVariable[] } = {}
): Promise<NodeRunRequest> {
  const user = await createUser()
  const workspace = await firstWorkspaceOf(user)
  const block: WorkflowBlock = { id: 'n1', type, graphCoordinates: { x: 0, y: 0 }, options }
  return {
    workflow: {
      id: 'wf1',
      workspaceId: workspace.id,
      ownerId: user.id,
      executable: { blocks: [block], edges: [], root_block: 'n1', wait_blocks: [] },
      settings: {},
      variables: [],
    },
    block,
    variables: extra.variables ?? [],
    signal: new AbortController().signal,
    context: {
      runId: 'run1',
      workflowId: 'wf1',
      node: { id: 'n1', type },
      input: extra.input ?? null,
      trigger: 'manual',
      attempt: 1,
      conditions: [],
      evaluateCondition: () => false,
    },
  }
}

test.group('Workflow nodes: send e-mail', () => {
  test('without SMTP each recipient gets the mail in the dev mailbox', async ({ assert }) => {
    const [to1, to2, cc, bcc] = [1, 2, 3, 4].map(() => uniqueEmail('mail'))
    const registry = await pluginRegistry()
    const outcome = await runNodeWith(
      registry,
      await request(
        'send-email',
        {
          to: `${to1}, ${to2}`,
          cc,
          bcc,
          replyTo: 'support@example.com',
          subject: 'Order {{$input.id}}',
          bodyType: 'html',
          body: '<p>Hello {{Name}} &amp; welcome</p><p>Bye</p>',
        },
        {
          input: { id: 'A-17' },
          variables: [
            { id: 'v1', name: 'Name', value: 'Ada' },
            { id: '{{$input.id}}', name: '$input.id', value: 'A-17' },
          ],
        }
      )
    )
    assert.deepEqual(
      outcome.logs.filter((log) => log.status === 'error'),
      []
    )
    assert.deepEqual((outcome.result as any).output, {
      to: [to1, to2],
      cc: [cc],
      bcc: [bcc],
      subject: 'Order A-17',
      transport: 'dev-mailbox',
      attachments: [],
    })
    for (const address of [to1, to2, cc, bcc]) {
      const mail = await DevMail.query().where('to', address).firstOrFail()
      assert.equal(mail.subject, 'Order A-17')
      assert.equal(mail.html, '<p>Hello Ada &amp; welcome</p><p>Bye</p>')
      assert.equal(mail.text, 'Hello Ada & welcome\nBye')
    }
  })

  test('a bad address or a missing subject fails the node and sends nothing', async ({
    assert,
  }) => {
    const registry = await pluginRegistry()
    const good = uniqueEmail('mail')
    const bad = await runNodeWith(
      registry,
      await request('send-email', { to: `${good}, not-an-address`, subject: 'Hi' })
    )
    assert.deepEqual(
      bad.logs.map((log) => log.description),
      ['Send e-mail: "not-an-address" in To is not an e-mail address']
    )
    // A subject left empty is refused by its field's validator before the runner; one that
    // is empty only once its variable is substituted, by the runner.
    const noSubject = await runNodeWith(registry, await request('send-email', { to: good }))
    assert.deepEqual(
      noSubject.logs.map((log) => log.description),
      ['Send e-mail: Subject is required']
    )
    const emptyVariable = await runNodeWith(
      registry,
      await request('send-email', { to: good, subject: '{{$input.subject}}' }, { input: {} })
    )
    assert.deepEqual(
      emptyVariable.logs.map((log) => log.description),
      ['Send e-mail: the subject is empty']
    )
    assert.isNull(await DevMail.query().where('to', good).first())
  })

  test('a plugin disabled on the plan, or unknown, does not run', async ({ assert }) => {
    const registry = await pluginRegistry()
    await setPluginEnabled('send-email', 'FREE', false)
    try {
      const to = uniqueEmail('mail')
      const refused = await runNodeWith(
        registry,
        await request('send-email', { to, subject: 'Hi', body: 'x' })
      )
      assert.deepEqual(
        refused.logs.map((log) => log.description),
        ["Send e-mail is not enabled on this workspace's plan"]
      )
      assert.isNull(await DevMail.query().where('to', to).first())
    } finally {
      await setPluginEnabled('send-email', 'FREE', true)
    }
    const unknown = await runNodeWith(registry, await request('text', {}))
    assert.deepEqual(
      unknown.logs.map((log) => log.description),
      ['Unknown node type "text"']
    )
  })
})
