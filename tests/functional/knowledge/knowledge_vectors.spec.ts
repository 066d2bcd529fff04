import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import KnowledgeStore from '#models/knowledge_store'
import { closeQueue, startWorkers } from '#queue/queue'
import { CreateCredential } from '#actions/credentials/create_credential'
import { AddSource } from '#actions/knowledge/add_source'
import { DeleteSource } from '#actions/knowledge/delete_source'
import { ReindexSource } from '#actions/knowledge/reindex_source'
import { CreateStore } from '#actions/knowledge/create_store'
import { DeleteStore } from '#actions/knowledge/delete_store'
import { UpdateStore } from '#actions/knowledge/update_store'
import { searchCapabilities, searchStore } from '#services/knowledge/search'
import { createVectorTable, toBlob, vectorTableOf } from '#services/knowledge/vectors'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'
import { standInEmbedding, startEmbeddingsStandIn } from '#tests/stand_ins/embeddings'
import { waitForSource } from '#tests/functional/knowledge/helpers'

/**
 * The vector side of search (docs/knowledge.md, "Search"): on SQLite the vec0 index follows
 * the chunks through indexing, re-indexing, deletion of sources and stores and a change of
 * embedding size; on every database hybrid search fuses keyword and vector hits and never
 * answers with the vectors of a chunk that is gone (PostgreSQL and MariaDB cache them).
 */

async function setup(dimensions = [64]) {
  const user = await createUser()
  await setUserPlan(user, 'UNLIMITED')
  const workspace = await firstWorkspaceOf(user)
  const services = await Promise.all(
    dimensions.map((size) => startEmbeddingsStandIn({ apiKey: 'sk-vec', dimensions: size }))
  )
  const credentials = await Promise.all(
    services.map((service, index) =>
      new CreateCredential().handle(user, workspace, {
        type: 'openai',
        name: `Embeddings ${dimensions[index]}`,
        data: { apiKey: 'sk-vec', baseUrl: service.apiBaseUrl },
      })
    )
  )
  const makeStore = (name: string, credentialIndex = 0) =>
    new CreateStore().handle(user, workspace, {
      name,
      embeddingCredentialsId: credentials[credentialIndex].id,
    })
  const close = () => Promise.all(services.map((service) => service.close()))
  return { user, workspace, credentials, makeStore, close }
}

async function addPairs(store: KnowledgeStore, pairs: [string, string][]) {
  const source = await new AddSource().handle(store, {
    type: 'QNA',
    pairs: pairs.map(([question, answer]) => ({ question, answer })),
  })
  const done = await waitForSource(source.id)
  if (done.status !== 'COMPLETED') throw new Error(done.error ?? 'not indexed')
  return done
}

async function chunkIdsOf(sourceId: string) {
  const rows = await db.from('knowledge_chunks').where('source_id', sourceId).select('id')
  return rows.map((row) => Number(row.id)).sort((a, b) => a - b)
}

/** The vec0 index's nearest chunks of a store for a text (SQLite with sqlite-vec only). */
async function knn(storeId: string, text: string, dimensions = 64) {
  const rows = await db.rawQuery(
    `select rowid as id from ${vectorTableOf(dimensions)} where embedding match ? and k = 100 and store_id = ?`,
    [toBlob(standInEmbedding(text, dimensions)), storeId]
  )
  return (rows as { id: number }[]).map((row) => Number(row.id)).sort((a, b) => a - b)
}

async function usesVec0() {
  return (await searchCapabilities()).vector === 'sqlite-vec'
}

test.group('Knowledge vector search', (group) => {
  group.setup(async () => {
    await startWorkers()
    return () => closeQueue()
  })

  test('hybrid search fuses keyword hits, vector hits and chunks both find', async ({ assert }) => {
    const { makeStore, close } = await setup()
    const store = await makeStore('Harbour')
    await addPairs(store, [
      ['Where are tickets sold?', 'The kiosk sells tickets for the ferry.'],
      ['Where do I park my car?', 'Level two of the garage.'],
      ['Can the boat take my vehicle?', 'The ferry carries your car across.'],
      ['Are pets allowed?', 'Dogs on a leash are welcome.'],
      // Chunks without the query's words, so that BM25 weighs "ferry" above zero.
      ['When does the museum open?', 'At nine, except on Mondays.'],
      ['Is there a restaurant?', 'Yes, on the upper deck.'],
      ['Can I pay by phone?', 'Cards and phones are accepted.'],
    ])

    const result = await searchStore(store, 'ferry automobile', { limit: 3 })
    assert.equal(result.mode, 'hybrid')
    assert.lengthOf(result.hits, 3)
    const [first, ...rest] = result.hits
    // Both kinds rank it: first, with both scores.
    assert.include(first.content, 'carries your car')
    assert.isAbove(first.keywordScore!, 0)
    assert.isAbove(first.vectorScore!, 0.3)
    // A keyword-only hit and a vector-only hit follow; the chunk neither finds is left out.
    const kiosk = rest.find((hit) => hit.content.includes('kiosk'))
    const garage = rest.find((hit) => hit.content.includes('park my car'))
    assert.exists(kiosk)
    assert.exists(garage)
    assert.isAbove(kiosk!.keywordScore!, 0)
    assert.isNull(garage!.keywordScore)
    assert.isAbove(garage!.vectorScore!, 0.2)
    assert.isTrue(result.hits.every((hit) => !hit.content.includes('leash')))
    assert.isAbove(first.score, rest[0].score)

    // Keyword-only search of the same store: no vector scores, only chunks with the words.
    const keyword = await searchStore(store, 'ferry automobile', { limit: 3, embedder: null })
    assert.equal(keyword.mode, 'keyword')
    assert.lengthOf(keyword.hits, 2)
    assert.isTrue(keyword.hits.every((hit) => hit.vectorScore === null))
    await close()
  })

  test('deleting or re-indexing a source and deleting a store update the vector index', async ({
    assert,
  }) => {
    const { makeStore, close } = await setup()
    const store = await makeStore('Garage')
    const other = await makeStore('Kennel')
    const cars = await addPairs(store, [['Where do I park my car?', 'Level two of the garage.']])
    const dogs = await addPairs(store, [['Can I bring my dog?', 'Dogs on a leash are welcome.']])
    const elsewhere = await addPairs(other, [['Is there car parking?', 'Behind the kennel.']])
    const carIds = await chunkIdsOf(cars.id)
    const dogIds = await chunkIdsOf(dogs.id)
    const elsewhereIds = await chunkIdsOf(elsewhere.id)
    const vec0 = await usesVec0()

    const found = async (query: string) =>
      (await searchStore(store, query, { limit: 5 })).hits.map((hit) => hit.chunkId)
    assert.equal((await found('automobile'))[0], carIds[0])
    if (vec0) {
      // The store's partition only: the other store's car chunk is not among its neighbours.
      assert.deepEqual(await knn(store.id, 'automobile'), [...carIds, ...dogIds].sort())
      assert.deepEqual(await knn(other.id, 'automobile'), elsewhereIds)
    }

    await new DeleteSource().handle(cars)
    assert.notInclude(await found('automobile'), carIds[0])
    if (vec0) assert.deepEqual(await knn(store.id, 'automobile'), dogIds)

    await new ReindexSource().handle(dogs)
    assert.equal((await waitForSource(dogs.id, { revision: 2 })).status, 'COMPLETED')
    const newDogIds = await chunkIdsOf(dogs.id)
    assert.notDeepEqual(newDogIds, dogIds)
    assert.deepEqual(await found('puppy'), newDogIds)
    if (vec0) assert.deepEqual(await knn(store.id, 'puppy'), newDogIds)

    await new DeleteStore().handle(other)
    if (vec0) {
      assert.deepEqual(await knn(other.id, 'automobile'), [])
      const left = await db.rawQuery(
        `select count(*) as total from ${vectorTableOf(64)} where store_id = ?`,
        [other.id]
      )
      assert.equal(Number(left[0].total), 0)
    }
    await close()
  })

  test('a new embedding size re-indexes the store into that size', async ({ assert }) => {
    const { makeStore, credentials, close } = await setup([64, 32])
    const store = await makeStore('Fleet', 0)
    const source = await addPairs(store, [
      ['Where do I park my car?', 'Level two of the garage.'],
      ['Are pets allowed?', 'Dogs on a leash are welcome.'],
    ])
    const before = await searchStore(store, 'automobile', { limit: 1 })
    assert.include(before.hits[0].content, 'park my car')

    await new UpdateStore().handle(store, { embeddingCredentialsId: credentials[1].id })
    assert.equal((await waitForSource(source.id, { revision: 2 })).status, 'COMPLETED')
    const stored = await db.from('knowledge_chunks').where('source_id', source.id)
    assert.isTrue(stored.every((row) => Buffer.from(row.embedding).byteLength === 32 * 4))

    const fresh = await KnowledgeStore.findOrFail(store.id)
    const after = await searchStore(fresh, 'automobile', { limit: 1 })
    assert.equal(after.mode, 'hybrid')
    assert.include(after.hits[0].content, 'park my car')
    assert.isNull(after.hits[0].keywordScore)
    assert.isAbove(after.hits[0].vectorScore!, 0.3)
    if (await usesVec0()) {
      assert.deepEqual(await knn(store.id, 'automobile', 64), [])
      assert.deepEqual(await knn(store.id, 'automobile', 32), await chunkIdsOf(source.id))
    }
    await close()
  })

  test('vectors stored before their size had an index are taken into it', async ({ assert }) => {
    // A size no other test uses: its table does not exist yet, as after an upgrade.
    const dimensions = 24
    assert.isNull(await db.from('sqlite_master').where('name', vectorTableOf(dimensions)!).first())
    const { makeStore, close } = await setup()
    const store = await makeStore('Archive')
    const source = await addPairs(store, [['Old question?', 'Old answer about a car.']])
    const [chunk] = await chunkIdsOf(source.id)
    await db
      .from('knowledge_chunks')
      .where('id', chunk)
      .update({ embedding: toBlob(standInEmbedding('car', dimensions)) })

    await db.transaction((trx) => createVectorTable(trx, dimensions))
    assert.deepEqual(await knn(store.id, 'automobile', dimensions), [chunk])
    // Idempotent: a second call (another process) adds nothing twice.
    await db.transaction((trx) => createVectorTable(trx, dimensions))
    assert.deepEqual(await knn(store.id, 'automobile', dimensions), [chunk])
    await close()
  }).skip(
    !!process.env.DB_CONNECTION && process.env.DB_CONNECTION !== 'sqlite',
    'the vec0 index is SQLite only'
  )
})
