import { test } from '@japa/runner'
import Folder from '#models/folder'
import ThemeTemplate from '#models/theme_template'
import BotInvitation from '#models/bot_invitation'
import WorkspaceInvitation from '#models/workspace_invitation'
import WorkspaceMember from '#models/workspace_member'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { CreateBot } from '#actions/bots/create_bot'
import { createUser, firstWorkspaceOf, setUserPlan, uniqueEmail } from '#tests/helpers'

/**
 * Another workspace's resources are "not found" to an outsider, whatever the method: a 403
 * to PATCH or DELETE once told them the id exists (docs/security.md).
 */
test.group('Foreign workspaces', () => {
  test('every PATCH and DELETE on another workspace answers 404 and changes nothing', async ({
    client,
    assert,
  }) => {
    const owner = await createUser()
    await setUserPlan(owner, 'UNLIMITED')
    const workspace = await firstWorkspaceOf(owner)
    const colleague = await createUser()
    await WorkspaceMember.create({
      workspaceId: workspace.id,
      userId: colleague.id,
      role: 'MEMBER',
    })
    const ownerToken = (await new CreateApiToken().handle(owner, 'owner')).value
    const bot = await new CreateBot().handle(owner, workspace, { name: 'Private bot' })
    const folder = await Folder.create({ workspaceId: workspace.id, name: 'Private folder' })
    const template = await ThemeTemplate.create({
      workspaceId: workspace.id,
      name: 'Private theme',
      theme: {},
    } as any)
    const botInvitation = await BotInvitation.create({
      botId: bot.id,
      email: uniqueEmail('guest'),
      type: 'READ_ONLY',
      createdBy: owner.id,
    } as any)
    const workspaceInvitation = await WorkspaceInvitation.create({
      workspaceId: workspace.id,
      email: uniqueEmail('invited'),
      role: 'MEMBER',
      createdBy: owner.id,
    })
    const credential = await client
      .post('/api/v1/credentials')
      .bearerToken(ownerToken)
      .json({
        workspaceId: workspace.id,
        type: 'openai',
        name: 'Private key',
        data: { apiKey: 'sk-private', baseUrl: 'https://api.openai.com/v1' },
      })
    assert.equal(credential.status(), 201, JSON.stringify(credential.body()))
    const credentialId = credential.body().id
    const workflow = await client
      .post('/api/v1/workflows')
      .bearerToken(ownerToken)
      .json({
        workspaceId: workspace.id,
        workflow: {
          id: `wf${Date.now()}`,
          name: 'Private workflow',
          version: 1,
          blocks: [],
          edges: [],
          variables: [],
        },
      })
    assert.equal(workflow.status(), 201, JSON.stringify(workflow.body()))
    const workflowId = workflow.body().workflow.id

    const outsider = await createUser()
    const outsiderToken = (await new CreateApiToken().handle(outsider, 'outsider')).value
    const body = { name: 'Taken over', role: 'ADMIN', type: 'FULL_ACCESS', theme: {} }

    const sessionRoutes: [string, string][] = [
      ['patch', `/workspaces/${workspace.id}`],
      ['delete', `/workspaces/${workspace.id}`],
      ['patch', `/workspaces/${workspace.id}/members/${colleague.id}`],
      ['delete', `/workspaces/${workspace.id}/members/${colleague.id}`],
      ['delete', `/workspaces/${workspace.id}/invitations/${workspaceInvitation.id}`],
      ['patch', `/bots/${bot.id}`],
      ['delete', `/bots/${bot.id}`],
      ['patch', `/folders/${folder.id}`],
      ['delete', `/folders/${folder.id}`],
      ['delete', `/workflows/${workflowId}`],
      ['patch', `/settings/account/credentials/${credentialId}`],
      ['delete', `/settings/account/credentials/${credentialId}`],
      ['delete', `/api/bots/${bot.id}/results`],
      ['patch', `/api/theme-templates/${template.id}`],
      ['delete', `/api/theme-templates/${template.id}`],
      ['patch', `/api/bots/${bot.id}/invitations/${botInvitation.id}`],
      ['delete', `/api/bots/${bot.id}/invitations/${botInvitation.id}`],
    ]
    const failures: string[] = []
    for (const [method, path] of sessionRoutes) {
      const response = await (client as any)
        [method](path)
        .header('accept', 'application/json')
        .json(body)
        .loginAs(outsider)
        .withCsrfToken()
      if (response.status() !== 404) failures.push(`${method} ${path}: ${response.status()}`)
    }
    const tokenRoutes: [string, string][] = [
      ['patch', `/api/v1/bots/${bot.id}`],
      ['delete', `/api/v1/bots/${bot.id}`],
      ['patch', `/api/v1/workflows/${workflowId}`],
      ['delete', `/api/v1/workflows/${workflowId}`],
      ['delete', `/api/v1/credentials/${credentialId}`],
    ]
    for (const [method, path] of tokenRoutes) {
      const response = await (client as any)[method](path).json(body).bearerToken(outsiderToken)
      if (response.status() !== 404) failures.push(`${method} ${path}: ${response.status()}`)
    }
    assert.deepEqual(failures, [])

    await workspace.refresh()
    await bot.refresh()
    await folder.refresh()
    assert.notEqual(workspace.name, 'Taken over')
    assert.equal(bot.name, 'Private bot')
    assert.equal(folder.name, 'Private folder')
    assert.isNotNull(await WorkspaceMember.query().where('user_id', colleague.id).first())
  })
})
