import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type KnowledgeStore from '#models/knowledge_store'
import { closeQueue, startWorkers } from '#queue/queue'
import { CreateCredential } from '#actions/credentials/create_credential'
import { AddSource } from '#actions/knowledge/add_source'
import { CreateStore } from '#actions/knowledge/create_store'
import { pgvectorQueryOf, searchCapabilities, searchStore } from '#services/knowledge/search'
import { backfillPgvector, pgvectorIndexOf } from '#services/knowledge/pgvector'
import { cosine, fromBlob } from '#services/knowledge/vectors'
import { standInEmbedding, startEmbeddingsStandIn } from '#tests/stand_ins/embeddings'
import { knowledgeOwner, waitForSource } from '#tests/functional/knowledge/helpers'

/**
 * pgvector on PostgreSQL (docs/knowledge.md, "Vector index on PostgreSQL"): with the `vector`
 * extension, migration 0090 adds the chunks' vector column and indexing fills it; hybrid
 * search's vector half is then a KNN query in the database that the size's HNSW index can
 * answer, and ranks as the exact nearest neighbours do. Runs on PostgreSQL when the server has
 * the extension's files (the migration creates it as a superuser).
 */
const onPostgres = process.env.DB_CONNECTION === 'pg'
// As migration 0090 decides: the extension's files are there, and it exists or may be created.
const extensionAvailable = onPostgres
  ? (
      await db.rawQuery(
        `select 1 as found from pg_available_extensions where name = 'vector'
         and (installed_version is not null
           or (select rolsuper from pg_roles where rolname = current_user))`
      )
    ).rows.length > 0
  : false
const skipReason = onPostgres
  ? 'the vector extension is not installed on this PostgreSQL server (or may not be created)'
  : 'pgvector is PostgreSQL only'

const DIMENSIONS = 64
const WORDS = ['car', 'dog', 'ferry', 'ticket', 'garage', 'leash', 'harbour', 'deck', 'kiosk']

/** Deterministic texts mixing the words in different amounts, so distances vary. */
function texts(count: number, seed: number) {
  let state = seed
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648
    return state / 2_147_483_648
  }
  return Array.from({ length: count }, () => {
    const words: string[] = []
    for (const word of WORDS) for (let n = Math.floor(next() * 4); n > 0; n--) words.push(word)
    return words.length > 0 ? words.join(' ') : 'harbour'
  })
}

async function storeWith(name: string, credentialsId: string, owner: any, contents: string[]) {
  const store = await new CreateStore().handle(owner.user, owner.workspace, {
    name,
    embeddingCredentialsId: credentialsId,
  })
  const source = await new AddSource().handle(store, {
    type: 'QNA',
    pairs: contents.map((answer, index) => ({ question: `Entry ${index}?`, answer })),
  })
  const done = await waitForSource(source.id)
  if (done.status !== 'COMPLETED') throw new Error(done.error ?? 'not indexed')
  return store
}

/** The store's exact nearest chunks by cosine over the stored blobs, best first. */
async function exactNeighbours(store: KnowledgeStore, query: number[]) {
  const rows = await db
    .from('knowledge_chunks')
    .where('store_id', store.id)
    .select('id', 'embedding')
  return rows
    .map((row) => ({ id: Number(row.id), score: cosine(query, fromBlob(row.embedding)!) }))
    .sort((a, b) => b.score - a.score || a.id - b.id)
}

test.group('Knowledge search with pgvector', (group) => {
  let service: Awaited<ReturnType<typeof startEmbeddingsStandIn>>
  let owner: Awaited<ReturnType<typeof knowledgeOwner>>
  let credentialsId: string
  group.tap((t) => t.skip(!extensionAvailable, skipReason))
  group.setup(async () => {
    if (!extensionAvailable) return async () => {}
    await startWorkers()
    service = await startEmbeddingsStandIn({ apiKey: 'sk-pgv', dimensions: DIMENSIONS })
    owner = await knowledgeOwner()
    const credentials = await new CreateCredential().handle(owner.user, owner.workspace, {
      type: 'openai',
      name: 'Embeddings',
      data: { apiKey: 'sk-pgv', baseUrl: service.apiBaseUrl },
    })
    credentialsId = credentials.id
    return async () => {
      await service.close()
      await closeQueue()
    }
  })

  test('indexing writes the vectors to the pgvector column and the size gets its HNSW index', async ({
    assert,
  }) => {
    assert.equal((await searchCapabilities()).vector, 'pgvector')
    const store = await storeWith('Column', credentialsId, owner, texts(12, 7))
    const rows = await db
      .from('knowledge_chunks')
      .where('store_id', store.id)
      .select('embedding', db.raw('embedding_vector::text as vec'))
    assert.lengthOf(rows, 12)
    for (const row of rows) {
      const blob = Array.from(fromBlob(row.embedding)!)
      const column = JSON.parse(row.vec) as number[]
      assert.lengthOf(column, DIMENSIONS)
      column.forEach((value, index) => assert.closeTo(value, blob[index], 1e-6))
    }
    const index = await db.rawQuery('select to_regclass(?) as found', [pgvectorIndexOf(DIMENSIONS)])
    assert.exists(index.rows[0].found)
  })

  test('hybrid search ranks by a pgvector KNN as the exact nearest neighbours', async ({
    assert,
  }) => {
    const store = await storeWith('Harbour', credentialsId, owner, texts(60, 11))
    // Another store whose chunks are all closer to the query: none may leak into the results.
    await storeWith(
      'Elsewhere',
      credentialsId,
      owner,
      texts(60, 5).map(() => 'car dog car dog')
    )
    // No chunk has these words: the hits are the vector half alone, in its order.
    const query = 'automobile puppy'
    const queryVector = standInEmbedding(query, DIMENSIONS)
    const expected = await exactNeighbours(store, queryVector)

    const result = await searchStore(store, query, { limit: 8 })
    assert.equal(result.mode, 'hybrid')
    assert.lengthOf(result.hits, 8)
    assert.isTrue(result.hits.every((hit) => hit.keywordScore === null))
    const exact = new Map(expected.map((entry) => [entry.id, entry.score]))
    result.hits.forEach((hit, rank) => {
      // The same scores as the exact top 8, rank by rank (ties may swap equal chunks).
      assert.closeTo(hit.vectorScore!, expected[rank].score, 1e-4)
      assert.closeTo(exact.get(hit.chunkId)!, expected[rank].score, 1e-4)
    })

    // The database's column is what is read, not the blobs (which the in-process cache reads):
    // the best chunk without its blob is still found, the second without its vector is not.
    const [best, second] = result.hits
    await db.from('knowledge_chunks').where('id', best.chunkId).update({ embedding: null })
    await db.from('knowledge_chunks').where('id', second.chunkId).update({ embedding_vector: null })
    const again = await searchStore(store, query, { limit: 8 })
    assert.equal(again.hits[0].chunkId, best.chunkId)
    assert.notInclude(
      again.hits.map((hit) => hit.chunkId),
      second.chunkId
    )
  })

  test('the KNN query is answered by the HNSW index of its size, in the store only', async ({
    assert,
  }) => {
    const store = await storeWith('Indexed', credentialsId, owner, texts(40, 23))
    await storeWith(
      'Crowd',
      credentialsId,
      owner,
      texts(200, 3).map(() => 'car dog')
    )
    const queryVector = standInEmbedding('car dog', DIMENSIONS)
    const expected = await exactNeighbours(store, queryVector)
    const { sql, bindings } = pgvectorQueryOf(store.id, queryVector, 10)

    await db.transaction(async (trx) => {
      // On tables this small the planner rightly prefers the store's rows and a sort; without
      // those paths it must find the HNSW index the query's cast and condition match.
      await trx.rawQuery('set local enable_seqscan = off')
      await trx.rawQuery('set local enable_bitmapscan = off')
      await trx.rawQuery('set local enable_sort = off')
      await trx.rawQuery(`set local hnsw.iterative_scan = strict_order`)
      const plan = await trx.rawQuery(`explain ${sql}`, bindings)
      const text = plan.rows.map((row: any) => row['QUERY PLAN']).join('\n')
      assert.include(text, `Index Scan using ${pgvectorIndexOf(DIMENSIONS)}`)
      // Through the index, the iterative scan still finds 10 chunks of this store, though the
      // other store's 200 chunks are all nearer.
      const rows = (await trx.rawQuery(sql, bindings)).rows
      assert.lengthOf(rows, 10)
      rows.forEach((row: any, rank: number) =>
        assert.closeTo(1 - Number(row.distance), expected[rank].score, 1e-4)
      )
    })
  })

  test('the migration fills the column from vectors stored before it existed', async ({
    assert,
  }) => {
    const store = await storeWith('Backfill', credentialsId, owner, texts(5, 31))
    await db.from('knowledge_chunks').where('store_id', store.id).update({ embedding_vector: null })
    await backfillPgvector(db)
    const rows = await db
      .from('knowledge_chunks')
      .where('store_id', store.id)
      .select('embedding', db.raw('embedding_vector::text as vec'))
    assert.lengthOf(rows, 5)
    for (const row of rows) {
      const column = JSON.parse(row.vec) as number[]
      const blob = fromBlob(row.embedding)!
      column.forEach((value, index) => assert.closeTo(value, blob[index], 1e-6))
    }
  })
})
