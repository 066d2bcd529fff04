import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import env from '#start/env'
import KnowledgeSource from '#models/knowledge_source'
import KnowledgeStore from '#models/knowledge_store'
import { createGuardedHttp } from '#plugins/guarded_http'
import { readStoredFile } from '#services/storage'
import { readBodyWithin } from '#services/limited_body'
import { extractText } from '#services/documents/extract_text'
import { MAX_SOURCE_BYTES, type QnaPair } from '#shared/knowledge'
import { chunkText } from './chunking.js'
import { embedderOf } from './embeddings.js'
import { backendSink, keptByPlugin, storeBackendOf, type ChunkSink } from './store_backend.js'
import { toBlob } from './vectors.js'
import { ensureVectorIndex, usesPgvector } from './search.js'
import { PGVECTOR_COLUMN, toVectorLiteral } from './pgvector.js'
import { stamp } from '#services/workflows/run_leases'

/**
 * Indexing one source (docs/knowledge.md, "Indexing"): PENDING → PROCESSING → COMPLETED,
 * or FAILED with the reason. Its text is read (the stored file, the fetched page, the
 * typed text or Q&A pairs), chunked by the store's settings, embedded when the store has
 * embedding credentials, and written in batches, the progress saved after each one.
 */

/** A failure the builder can act on; its message is the source's reason. */
export class SourceError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'SourceError'
  }
}

export function megabytes(bytes: number) {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
}

export function tooLargeMessage(bytes: number) {
  return `The source is ${megabytes(bytes)}; the limit is ${megabytes(MAX_SOURCE_BYTES)}`
}

/** How many chunks are written (and embedded) per batch; progress moves per batch. */
const BATCH = 200

function readLimited(response: Response) {
  return readBodyWithin(
    response,
    MAX_SOURCE_BYTES,
    (announced) =>
      new SourceError(
        announced
          ? tooLargeMessage(announced)
          : `The page is larger than ${megabytes(MAX_SOURCE_BYTES)}`
      )
  )
}

async function fetchUrl(url: string, signal?: AbortSignal) {
  const http = createGuardedHttp({
    allowInternal: env.get('ALLOW_INTERNAL_HTTP'),
    timeoutMs: 30_000,
  })
  let response: Response
  try {
    response = await http.request(url, {
      headers: { accept: 'text/html,text/plain,text/markdown,text/csv;q=0.9,*/*;q=0.5' },
      signal,
    })
  } catch (error) {
    throw new SourceError(`The page could not be fetched: ${(error as Error).message}`)
  }
  if (!response.ok) throw new SourceError(`The page answered ${response.status}`)
  const data = await readLimited(response)
  const mimeType = response.headers.get('content-type') ?? undefined
  const path = new URL(url).pathname
  const filename = path.split('/').pop() || 'page.html'
  const html = mimeType?.includes('text/html')
  return (
    await extractText(data, {
      filename: html ? 'page.html' : filename,
      mimeType,
      maxBytes: MAX_SOURCE_BYTES,
    })
  ).text
}

function qnaChunks(source: KnowledgeSource, store: KnowledgeStore) {
  let pairs: QnaPair[] = []
  try {
    pairs = JSON.parse(source.content ?? '[]')
  } catch {
    throw new SourceError('The questions and answers could not be read')
  }
  // A pair is one chunk; a long answer is split with its question repeated in each part.
  return pairs.flatMap(({ question, answer }) => {
    const head = `Q: ${question.trim()}\nA: `
    const room = Math.max(store.chunkSize - head.length, Math.ceil(store.chunkSize / 2))
    return chunkText(answer, {
      method: store.chunkingMethod,
      size: room,
      overlap: store.overlapSize,
    }).map((part) => head + part)
  })
}

async function chunksOf(source: KnowledgeSource, store: KnowledgeStore, signal?: AbortSignal) {
  if (source.type === 'QNA') return qnaChunks(source, store)
  let text: string
  if (source.type === 'TEXT') text = source.content ?? ''
  else if (source.type === 'URL') text = await fetchUrl(source.url ?? '', signal)
  else {
    if ((source.size ?? 0) > MAX_SOURCE_BYTES) throw new SourceError(tooLargeMessage(source.size!))
    if (!source.fileKey) throw new SourceError('The file was not stored')
    let data: Buffer
    try {
      data = await readStoredFile(source.fileKey)
    } catch {
      throw new SourceError('The stored file could not be read')
    }
    if (data.byteLength > MAX_SOURCE_BYTES) throw new SourceError(tooLargeMessage(data.byteLength))
    text = (
      await extractText(data, {
        filename: source.name,
        mimeType: source.mimeType ?? undefined,
        maxBytes: MAX_SOURCE_BYTES,
      })
    ).text
  }
  return chunkText(text, {
    method: store.chunkingMethod,
    size: store.chunkSize,
    overlap: store.overlapSize,
  })
}

/** Stored as the source's reason (English, as the services' own messages are). */
const FALLBACK_REASON = 'The source could not be indexed'

function reasonOf(error: unknown) {
  const text = error instanceof Error ? error.message : String(error)
  return text.slice(0, 1000) || FALLBACK_REASON
}

/** Still the revision this job was dispatched for (a re-index or a delete moves it). */
async function isCurrent(sourceId: string, revision: number) {
  const row = await db.from('knowledge_sources').where('id', sourceId).select('revision').first()
  return !!row && Number(row.revision) === revision
}

async function update(sourceId: string, revision: number, values: Record<string, unknown>) {
  await db
    .from('knowledge_sources')
    .where('id', sourceId)
    .where('revision', revision)
    .update({ ...values, updated_at: stamp(new Date()) })
}

/** The name of the plugin keeping a store, for the reasons a source failed. */
async function serviceName(store: KnowledgeStore) {
  return (await storeBackendOf(store.backend).catch(() => null))?.name ?? store.backend
}

async function sinkOf(store: KnowledgeStore, signal?: AbortSignal) {
  try {
    return await backendSink(store, signal)
  } catch (error) {
    throw new SourceError(`${await serviceName(store)} could not be reached: ${reasonOf(error)}`)
  }
}

async function writeToSink(
  sink: ChunkSink,
  store: KnowledgeStore,
  source: KnowledgeSource,
  start: number,
  part: string[]
) {
  try {
    await sink.write(source, start, part)
  } catch (error) {
    throw new SourceError(`${await serviceName(store)} refused the chunks: ${reasonOf(error)}`)
  }
}

/** A failed source leaves no half of its records in the service, when it still answers. */
async function clearQuietly(store: KnowledgeStore, sourceId: string) {
  try {
    await (await backendSink(store)).clear(sourceId)
  } catch {
    // The index is unreachable (the reason the source failed, most often): nothing to do.
  }
}

export interface IndexOutcome {
  status: 'COMPLETED' | 'FAILED' | 'stale'
  chunks?: number
  error?: string
}

export async function indexSource(
  sourceId: string,
  revision: number,
  signal?: AbortSignal
): Promise<IndexOutcome> {
  const source = await KnowledgeSource.find(sourceId)
  if (!source || source.revision !== revision) return { status: 'stale' }
  const store = await KnowledgeStore.findOrFail(source.storeId)
  await update(sourceId, revision, { status: 'PROCESSING', progress: 0, error: null })
  try {
    const chunks = await chunksOf(source, store, signal)
    if (chunks.length === 0) throw new SourceError('The source has no text to index')
    // A store kept by a plugin writes to its service (docs/knowledge.md, "Stores kept by a plugin").
    const sink = keptByPlugin(store) ? await sinkOf(store, signal) : null
    const embedder = sink ? null : await embedderOf(store)
    if (sink) await sink.clear(sourceId)
    else await db.from('knowledge_chunks').where('source_id', sourceId).delete()
    const batch = sink ? sink.batchSize : embedder ? Math.min(BATCH, embedder.batchSize) : BATCH
    for (let start = 0; start < chunks.length; start += batch) {
      if (!(await isCurrent(sourceId, revision))) return { status: 'stale' }
      const part = chunks.slice(start, start + batch)
      if (sink) {
        await writeToSink(sink, store, source, start, part)
        const written = Math.min(chunks.length, start + part.length)
        await update(sourceId, revision, { progress: Math.floor((written / chunks.length) * 100) })
        continue
      }
      let vectors: number[][] | null = null
      if (embedder) {
        try {
          vectors = await embedder.embed(part, signal)
        } catch (error) {
          throw new SourceError(`The embedding service failed: ${reasonOf(error)}`)
        }
        // Before the insert: the index's trigger copies the vectors as they are written.
        if (vectors.length > 0) await ensureVectorIndex(vectors[0].length)
      }
      // On PostgreSQL with pgvector the vector is written to its column too (no trigger
      // can read the float32 blob there; docs/knowledge.md, "Vector index on PostgreSQL").
      const pgvector = vectors !== null && (await usesPgvector())
      await db.table('knowledge_chunks').multiInsert(
        part.map((content, index) => ({
          store_id: store.id,
          source_id: sourceId,
          position: start + index,
          content,
          embedding: vectors ? toBlob(vectors[index]) : null,
          ...(pgvector ? { [PGVECTOR_COLUMN]: toVectorLiteral(vectors![index]) } : {}),
        }))
      )
      const done = Math.min(chunks.length, start + part.length)
      await update(sourceId, revision, { progress: Math.floor((done / chunks.length) * 100) })
    }
    await update(sourceId, revision, {
      status: 'COMPLETED',
      progress: 100,
      chunk_count: chunks.length,
      indexed_at: stamp(DateTime.now()),
    })
    return { status: 'COMPLETED', chunks: chunks.length }
  } catch (error) {
    const reason = reasonOf(error)
    if (await isCurrent(sourceId, revision)) {
      if (keptByPlugin(store)) await clearQuietly(store, sourceId)
      else await db.from('knowledge_chunks').where('source_id', sourceId).delete()
      await update(sourceId, revision, { status: 'FAILED', error: reason, chunk_count: 0 })
    }
    return { status: 'FAILED', error: reason }
  }
}

/** A job that failed for good (a crash of the handler): the source says so. */
export async function markSourceFailed(sourceId: string, revision: number, error: unknown) {
  await update(sourceId, revision, { status: 'FAILED', error: reasonOf(error) })
}
