import { test } from '@japa/runner'
import * as Y from 'yjs'
import { deleteBlock, moveBlock, moveGroup, updateBlockContent } from '#shared/bot/editing'
import type { BotV6 } from '#shared/bot/types'
import {
  keepUnchanged,
  mergeDrafts,
  readDraft,
  writeDraft,
  writeDraftChange,
} from '#shared/coedit/mirror'
import { blockOf, groupOf, pizzaBot } from '../bot/fixtures.js'

/** Two replicas of one shared draft, seeded from the same document state. */
function replicas(bot: BotV6) {
  const seed = new Y.Doc()
  writeDraft(seed, bot as unknown as Record<string, unknown>)
  const state = Y.encodeStateAsUpdate(seed)
  const a = new Y.Doc()
  const b = new Y.Doc()
  Y.applyUpdate(a, state)
  Y.applyUpdate(b, state)
  return { a, b }
}

/** Exchanges what each replica has that the other lacks. */
function exchange(a: Y.Doc, b: Y.Doc) {
  const toB = Y.encodeStateAsUpdate(a, Y.encodeStateVector(b))
  const toA = Y.encodeStateAsUpdate(b, Y.encodeStateVector(a))
  Y.applyUpdate(b, toB)
  Y.applyUpdate(a, toA)
}

const asBot = (doc: Y.Doc) => readDraft(doc) as unknown as BotV6

function setText(bot: BotV6, blockId: string, text: string) {
  return updateBlockContent(bot, blockId, (content) => ({ ...content, plainText: text }))
}

function firstTextBlock(bot: BotV6) {
  for (const group of bot.groups)
    for (const block of group.blocks) if (block.type === 'text') return { group, block }
  throw new Error('no text block')
}

test.group('Co-editing / the draft mirrored into Yjs', () => {
  test('a draft written and read back is the same JSON', ({ assert }) => {
    const bot = pizzaBot()
    const doc = new Y.Doc()
    writeDraft(doc, bot as unknown as Record<string, unknown>)
    assert.deepEqual(readDraft(doc), JSON.parse(JSON.stringify(bot)))
  })

  test('two people typing in one bubble keep both their characters', ({ assert }) => {
    const bot = setText(pizzaBot(), firstTextBlock(pizzaBot()).block.id, 'Hello')
    const { block } = firstTextBlock(bot)
    const { a, b } = replicas(bot)
    writeDraft(a, setText(asBot(a), block.id, 'Hello Alice') as never)
    writeDraft(b, setText(asBot(b), block.id, 'Bob: Hello') as never)
    exchange(a, b)
    const text = blockOf(asBot(a), block.id).content?.plainText as string
    assert.equal(text, blockOf(asBot(b), block.id).content?.plainText)
    assert.equal(text, 'Bob: Hello Alice')
  })

  test('moving a group while another edits a block in it keeps both', ({ assert }) => {
    const bot = pizzaBot()
    const { group, block } = firstTextBlock(bot)
    const { a, b } = replicas(bot)
    writeDraft(a, moveGroup(asBot(a), group.id, { x: 999, y: 555 }) as never)
    writeDraft(b, setText(asBot(b), block.id, 'Edited') as never)
    exchange(a, b)
    for (const doc of [a, b]) {
      assert.deepEqual(groupOf(asBot(doc), group.id).graphCoordinates, { x: 999, y: 555 })
      assert.equal(blockOf(asBot(doc), block.id).content?.plainText, 'Edited')
    }
  })

  test('a delete against an edit of the same block ends the same everywhere', ({ assert }) => {
    const bot = pizzaBot()
    const { block } = firstTextBlock(bot)
    const { a, b } = replicas(bot)
    writeDraft(a, deleteBlock(asBot(a), block.id) as never)
    writeDraft(b, setText(asBot(b), block.id, 'Edited') as never)
    exchange(a, b)
    assert.deepEqual(readDraft(a), readDraft(b))
    const ids = asBot(a).groups.flatMap((group) => group.blocks.map((entry) => entry.id))
    assert.notInclude(ids, block.id)
  })

  test('a block moved to another group is one delete and one insert', ({ assert }) => {
    const bot = pizzaBot()
    const { group, block } = firstTextBlock(bot)
    const other = bot.groups.find((entry) => entry.id !== group.id && entry.blocks.length > 0)!
    const doc = new Y.Doc()
    writeDraft(doc, bot as never)
    const moved = moveBlock(bot, block.id, other.id, 0)
    let changes = 0
    doc.on('update', () => changes++)
    writeDraft(doc, moved as never)
    assert.equal(changes, 1)
    assert.deepEqual(readDraft(doc), JSON.parse(JSON.stringify(moved)))
  })

  test('only what changed gets new objects', ({ assert }) => {
    const bot = pizzaBot()
    const { group, block } = firstTextBlock(bot)
    const next = JSON.parse(JSON.stringify(setText(bot, block.id, 'Changed'))) as BotV6
    const kept = keepUnchanged(bot, next)
    const untouched = bot.groups.find((entry) => entry.id !== group.id)!
    assert.strictEqual(groupOf(kept, untouched.id), untouched)
    assert.notStrictEqual(groupOf(kept, group.id), group)
    assert.strictEqual(kept.variables, bot.variables)
  })

  test('a draft written elsewhere merges with edits not written yet', ({ assert }) => {
    const base = pizzaBot()
    const { group, block } = firstTextBlock(base)
    const other = base.groups.find((entry) => entry.id !== group.id)!
    // Elsewhere (the copilot): a group renamed, a variable added, the text bubble's group moved.
    const theirs = {
      ...moveGroup(base, group.id, { x: 5, y: 6 }),
      variables: [...base.variables, { id: 'v-new', name: 'New' }],
    }
    const renamed = {
      ...theirs,
      groups: theirs.groups.map((entry) =>
        entry.id === other.id ? { ...entry, title: 'Theirs' } : entry
      ),
    }
    // Here: the bubble edited, a block deleted elsewhere in the bot.
    const mine = setText(base, block.id, 'Mine')
    const merged = mergeDrafts(base, renamed, mine) as BotV6
    assert.equal(groupOf(merged, other.id).title, 'Theirs')
    assert.deepEqual(groupOf(merged, group.id).graphCoordinates, { x: 5, y: 6 })
    assert.equal(blockOf(merged, block.id).content?.plainText, 'Mine')
    assert.include(
      merged.variables.map((variable) => variable.id),
      'v-new'
    )
    // A block deleted on one side stays deleted.
    const deleted = deleteBlock(base, block.id)
    const kept = mergeDrafts(base, deleted, setText(base, block.id, 'Edited')) as BotV6
    assert.notInclude(
      kept.groups.flatMap((entry) => entry.blocks.map((item) => item.id)),
      block.id
    )
  })

  test('a change written from the previous draft ends as writing the whole draft', ({ assert }) => {
    const bot = pizzaBot()
    const { group, block } = firstTextBlock(bot)
    const other = bot.groups.find((entry) => entry.id !== group.id && entry.blocks.length > 0)!
    const steps: ((draft: BotV6) => BotV6)[] = [
      (draft) => moveGroup(draft, group.id, { x: 10, y: 20 }),
      (draft) => setText(draft, block.id, 'Changed in place'),
      (draft) => moveBlock(draft, block.id, other.id, 0),
      (draft) => deleteBlock(draft, block.id),
      (draft) => ({ ...draft, name: 'Renamed', variables: [] }),
    ]
    const whole = new Y.Doc()
    const changed = new Y.Doc()
    writeDraft(whole, bot as never)
    writeDraft(changed, bot as never)
    let previous = bot
    for (const step of steps) {
      const next = step(previous)
      writeDraft(whole, next as never)
      writeDraftChange(changed, previous as never, next as never)
      assert.deepEqual(readDraft(changed), readDraft(whole))
      assert.deepEqual(readDraft(changed), JSON.parse(JSON.stringify(next)))
      previous = next
    }
  })

  test('a move reads the moved group only: parts kept the same object are not read', ({
    assert,
  }) => {
    const bot = pizzaBot()
    const [moved, ...others] = bot.groups
    // Reading any other group would throw: a change is written without walking the draft.
    const untouchable = others.map(
      (group) =>
        new Proxy(group, {
          get(target, key) {
            if (key === 'id') return target.id
            throw new Error(`group ${target.id} was read`)
          },
          ownKeys() {
            throw new Error('a group was walked')
          },
        })
    )
    const before = { ...bot, groups: [moved, ...untouchable] }
    const doc = new Y.Doc()
    writeDraft(doc, bot as never)
    const after = {
      ...before,
      groups: [{ ...moved, graphCoordinates: { x: 7, y: 8 } }, ...untouchable],
    }
    writeDraftChange(doc, before as never, after as never)
    assert.deepEqual(groupOf(asBot(doc), moved.id).graphCoordinates, { x: 7, y: 8 })
    assert.deepEqual(
      readDraft(doc),
      JSON.parse(JSON.stringify({ ...bot, groups: [after.groups[0], ...others] }))
    )
  })
})
