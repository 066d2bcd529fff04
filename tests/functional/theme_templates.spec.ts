import { test } from '@japa/runner'
import ThemeTemplate from '#models/theme_template'
import WorkspaceMember from '#models/workspace_member'
import { createUser, firstWorkspaceOf } from '#tests/helpers'
import type { BotTheme } from '#shared/bot/types'

const theme: BotTheme = {
  general: { background: { type: 'Color', content: '#101010' } },
  customCss: '',
}

test.group('Theme templates API', () => {
  test('a writer saves, lists, renames and deletes templates of the workspace', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    const base = `/api/workspaces/${workspace.id}/theme-templates`

    const empty = await client.get(base).loginAs(user)
    empty.assertStatus(200)
    assert.deepEqual(empty.body(), { themeTemplates: [] })

    const created = await client
      .post(base)
      .json({ name: '  Night  ', theme })
      .loginAs(user)
      .withCsrfToken()
    created.assertStatus(201)
    const template = created.body().themeTemplate
    assert.equal(template.name, 'Night')
    assert.deepEqual(template.theme, theme)
    assert.equal(template.workspaceId, workspace.id)

    const listed = await client.get(base).loginAs(user)
    assert.deepEqual(
      listed.body().themeTemplates.map((t: any) => t.id),
      [template.id]
    )

    const renamed = await client
      .patch(`/api/theme-templates/${template.id}`)
      .json({ name: 'Midnight' })
      .loginAs(user)
      .withCsrfToken()
    renamed.assertStatus(200)
    assert.equal(renamed.body().themeTemplate.name, 'Midnight')
    assert.deepEqual(renamed.body().themeTemplate.theme, theme)

    const deleted = await client
      .delete(`/api/theme-templates/${template.id}`)
      .loginAs(user)
      .withCsrfToken()
    deleted.assertStatus(204)
    assert.isNull(await ThemeTemplate.find(template.id))
  })

  test('bad input answers 422 and saves nothing', async ({ client, assert }) => {
    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    const response = await client
      .post(`/api/workspaces/${workspace.id}/theme-templates`)
      .json({ name: '   ', theme: 'not an object' })
      .loginAs(user)
      .withCsrfToken()
    response.assertStatus(422)
    assert.sameMembers(
      response.body().errors.map((e: any) => e.field),
      ['name', 'theme']
    )
    assert.lengthOf(await ThemeTemplate.query().where('workspace_id', workspace.id), 0)
  })

  test('guests are refused, strangers see nothing, anonymous callers are unauthorized', async ({
    client,
    assert,
  }) => {
    const owner = await createUser()
    const workspace = await firstWorkspaceOf(owner)
    const template = await ThemeTemplate.create({ workspaceId: workspace.id, name: 'Kept', theme })
    const guest = await createUser()
    await WorkspaceMember.create({ workspaceId: workspace.id, userId: guest.id, role: 'GUEST' })
    const stranger = await createUser()
    const base = `/api/workspaces/${workspace.id}/theme-templates`

    const guestList = await client.get(base).loginAs(guest)
    guestList.assertStatus(403)
    guestList.assertBodyContains({ description: 'Guests cannot change theme templates.' })
    ;(
      await client
        .patch(`/api/theme-templates/${template.id}`)
        .json({ name: 'Changed' })
        .loginAs(guest)
        .withCsrfToken()
    ).assertStatus(403)

    ;(await client.get(base).loginAs(stranger)).assertStatus(404)
    const foreign = await client
      .delete(`/api/theme-templates/${template.id}`)
      .loginAs(stranger)
      .withCsrfToken()
    foreign.assertStatus(404)
    foreign.assertBodyContains({ message: 'Theme template not found' })

    ;(await client.get(base).accept('json')).assertStatus(401)
    await template.refresh()
    assert.equal(template.name, 'Kept')
  })

  test('a session call without the XSRF token is refused', async ({ client, assert }) => {
    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    const response = await client
      .post(`/api/workspaces/${workspace.id}/theme-templates`)
      .json({ name: 'No token', theme })
      .loginAs(user)
    response.assertStatus(403)
    assert.lengthOf(await ThemeTemplate.query().where('workspace_id', workspace.id), 0)
  })
})
