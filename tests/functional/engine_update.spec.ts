import { test } from '@japa/runner'
import { readFile } from 'node:fs/promises'
import Bot from '#models/bot'
import { createUser, firstWorkspaceOf } from '#tests/helpers'

/** A bot stored in an older engine version opens migrated; saving stores it as version 6. */
test.group('Editor: engine update', () => {
  test('an older bot opens migrated, with its stored version, and saving upgrades it', async ({
    client,
    assert,
  }) => {
    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    const fixture = JSON.parse(
      await readFile(new URL('../fixtures/chat/legacy_v5.json', import.meta.url), 'utf8')
    ).bot
    assert.equal(fixture.version, '5')
    // Stored as an old row would be: no import (which would migrate it) on the way in.
    const bot = await Bot.create({
      workspaceId: workspace.id,
      createdBy: user.id,
      name: 'Old bot',
      version: '5',
      groups: fixture.groups,
      events: fixture.events ?? [],
      edges: fixture.edges,
      variables: fixture.variables,
      theme: fixture.theme ?? {},
      settings: fixture.settings ?? {},
      isArchived: false,
      isClosed: false,
    } as any)

    const opened = await client.get(`/bots/${bot.id}/edit`).loginAs(user).withInertia()
    opened.assertStatus(200)
    const props = opened.inertiaProps as any
    assert.equal(props.storedVersion, '5')
    assert.equal(props.bot.version, '6')
    assert.equal(props.bot.id, bot.id)
    assert.lengthOf(props.bot.events, 1, 'the legacy start block became the start event')
    // Opening changes nothing in the database.
    await bot.refresh()
    assert.equal(bot.version, '5')

    const saved = await client
      .patch(`/api/v1/bots/${bot.id}`)
      .json({ groups: props.bot.groups, events: props.bot.events, edges: props.bot.edges })
      .loginAs(user)
      .withCsrfToken()
    saved.assertStatus(200)
    await bot.refresh()
    assert.equal(bot.version, '6')

    const reopened = await client.get(`/bots/${bot.id}/edit`).loginAs(user).withInertia()
    assert.equal((reopened.inertiaProps as any).storedVersion, '6')
  })
})
