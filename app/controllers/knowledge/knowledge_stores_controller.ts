import type { HttpContext } from '@adonisjs/core/http'
import { readFile } from 'node:fs/promises'
import KnowledgeStore from '#models/knowledge_store'
import KnowledgeSource from '#models/knowledge_source'
import AppError from '#exceptions/app_error'
import { resolveCurrentWorkspace } from '#services/current_workspace'
import { planFor } from '#services/capabilities'
import { aiPort } from '#services/ai/credits'
import { embeddingCredentialsOf } from '#services/knowledge/embeddings'
import { searchCapabilities } from '#services/knowledge/search'
import { backendCredentialsOf, searchKnowledgeStore } from '#services/knowledge/store_backend'
import { countsOf, listStores } from '#actions/knowledge/knowledge_stores'
import { backendIndexesOf, countStores, CreateStore } from '#actions/knowledge/create_store'
import { DeleteStore } from '#actions/knowledge/delete_store'
import { UpdateStore } from '#actions/knowledge/update_store'
import { AddSource, type SourceInput } from '#actions/knowledge/add_source'
import { DeleteSource } from '#actions/knowledge/delete_source'
import { findSource } from '#actions/knowledge/knowledge_sources'
import { ReindexSource } from '#actions/knowledge/reindex_source'
import { toSourceDto, toStoreDto } from '#dtos/knowledge_dto'
import {
  createStoreValidator,
  backendIndexesValidator,
  qnaSourceValidator,
  searchValidator,
  textSourceValidator,
  updateStoreValidator,
  urlSourceValidator,
} from '#validators/knowledge'
import db from '@adonisjs/lucid/services/db'
import {
  DEFAULT_DOCUMENT_COUNT,
  MAX_SOURCE_BYTES,
  type VectorStorePageProps,
  type VectorsPageProps,
} from '#shared/knowledge'

async function currentWorkspace(ctx: HttpContext) {
  const current = await resolveCurrentWorkspace(ctx, ctx.auth.user!)
  if (!current) throw AppError.notFound('Workspace not found')
  return current.workspace
}

/** A store the user may see; any other id is "not found", so ids do not leak. */
async function load(ctx: HttpContext, ability: 'view' | 'edit') {
  const store = await KnowledgeStore.find(ctx.params.id)
  if (!store || (await ctx.bouncer.with('KnowledgeStorePolicy').denies('view', store))) {
    throw AppError.notFound('Knowledge store not found')
  }
  if (
    ability === 'edit' &&
    (await ctx.bouncer.with('KnowledgeStorePolicy').denies('edit', store))
  ) {
    throw AppError.forbidden('Guests cannot change knowledge stores.')
  }
  return store
}

/** The Vectors pages and the JSON calls they make (docs/knowledge.md). */
export default class KnowledgeStoresController {
  async index(ctx: HttpContext) {
    const workspace = await currentWorkspace(ctx)
    await ctx.bouncer.with('KnowledgeStorePolicy').authorize('viewAny', workspace)
    const rows = await listStores(workspace.id)
    const { plan } = await planFor(ctx.auth.user!, workspace)
    const props: VectorsPageProps = {
      stores: rows.map(({ store, counts }) => toStoreDto(store, counts)),
      canWrite: await ctx.bouncer.with('KnowledgeStorePolicy').allows('create', workspace),
      limit: { used: await countStores(db, workspace.id), limit: plan.limits.vectorLimit },
      embeddingCredentials: await embeddingCredentialsOf(workspace.id),
      backendCredentials: await backendCredentialsOf(workspace.id),
      capabilities: await searchCapabilities(),
    }
    return ctx.inertia.render('vectors/index', { ...props })
  }

  /** The indexes of workspace credentials that can hold a store, for the store form's picker. */
  async backendIndexes(ctx: HttpContext) {
    const workspace = await currentWorkspace(ctx)
    if (await ctx.bouncer.with('KnowledgeStorePolicy').denies('create', workspace)) {
      throw AppError.forbidden('Guests cannot create knowledge stores.')
    }
    const { credentialsId } = await ctx.request.validateUsing(backendIndexesValidator, {
      data: ctx.request.qs(),
    })
    return ctx.response.json({ indexes: await backendIndexesOf(workspace.id, credentialsId) })
  }

  async show(ctx: HttpContext) {
    const store = await load(ctx, 'view')
    const sources = await KnowledgeSource.query()
      .where('store_id', store.id)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
    const props: VectorStorePageProps = {
      store: toStoreDto(store, await countsOf(store.id)),
      sources: sources.map(toSourceDto),
      canWrite: await ctx.bouncer.with('KnowledgeStorePolicy').allows('edit', store),
      embeddingCredentials: await embeddingCredentialsOf(store.workspaceId),
      capabilities: await searchCapabilities(),
    }
    return ctx.inertia.render('vectors/show', { ...props })
  }

  async store(ctx: HttpContext) {
    const workspace = await currentWorkspace(ctx)
    if (await ctx.bouncer.with('KnowledgeStorePolicy').denies('create', workspace)) {
      throw AppError.forbidden('Guests cannot create knowledge stores.')
    }
    const payload = await ctx.request.validateUsing(createStoreValidator)
    const store = await new CreateStore().handle(ctx.auth.user!, workspace, payload)
    return ctx.response.status(201).json({ store: toStoreDto(store) })
  }

  async update(ctx: HttpContext) {
    const store = await load(ctx, 'edit')
    const payload = await ctx.request.validateUsing(updateStoreValidator)
    await new UpdateStore().handle(store, payload)
    return ctx.response.json({ store: toStoreDto(store, await countsOf(store.id)) })
  }

  async destroy(ctx: HttpContext) {
    const store = await load(ctx, 'edit')
    await new DeleteStore().handle(store)
    return ctx.response.json({ ok: true })
  }

  /** The sources and their statuses: the store page reads them again while some are busy. */
  async sources(ctx: HttpContext) {
    const store = await load(ctx, 'view')
    const sources = await KnowledgeSource.query()
      .where('store_id', store.id)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
    return ctx.response.json({
      sources: sources.map(toSourceDto),
      store: toStoreDto(store, await countsOf(store.id)),
    })
  }

  /** POST a TEXT, QNA or URL source as JSON, or a FILE as multipart (field `file`). */
  async addSource(ctx: HttpContext) {
    const store = await load(ctx, 'edit')
    let input: SourceInput
    const file = ctx.request.file('file')
    if (file) {
      if (!file.tmpPath) {
        const reason = file.errors[0]?.message ?? 'The file could not be received'
        throw new AppError('The file could not be received', {
          status: 422,
          code: 'E_FILE',
          description: reason,
        })
      }
      // Over the limit, the file is listed as FAILED without being read or stored.
      const bytes = file.size > MAX_SOURCE_BYTES ? new Uint8Array() : await readFile(file.tmpPath)
      input = {
        type: 'FILE',
        file: {
          bytes,
          name: file.clientName,
          mimeType: file.headers['content-type'] ?? undefined,
          size: file.size,
        },
      }
    } else {
      const type = ctx.request.input('type')
      if (type === 'TEXT') input = await ctx.request.validateUsing(textSourceValidator)
      else if (type === 'QNA') input = await ctx.request.validateUsing(qnaSourceValidator)
      else if (type === 'URL') input = await ctx.request.validateUsing(urlSourceValidator)
      else {
        throw new AppError('Choose a source type', {
          status: 422,
          code: 'E_VALIDATION',
          field: 'type',
        })
      }
    }
    const source = await new AddSource().handle(store, input)
    return ctx.response.status(201).json({ source: toSourceDto(source) })
  }

  async reindexSource(ctx: HttpContext) {
    const store = await load(ctx, 'edit')
    const source = await new ReindexSource().handle(await findSource(store, ctx.params.sourceId))
    return ctx.response.json({ source: toSourceDto(source) })
  }

  async destroySource(ctx: HttpContext) {
    const store = await load(ctx, 'edit')
    await new DeleteSource().handle(await findSource(store, ctx.params.sourceId))
    return ctx.response.json({ ok: true })
  }

  /** The "search this store" box: chunks with their scores. */
  async search(ctx: HttpContext) {
    const store = await load(ctx, 'view')
    const { query, limit } = await ctx.request.validateUsing(searchValidator)
    const result = await searchKnowledgeStore(store, query, {
      limit: limit ?? Math.max(DEFAULT_DOCUMENT_COUNT, 5),
      ai: aiPort({
        ownerId: ctx.auth.user!.id,
        workspaceId: store.workspaceId,
        source: 'knowledge',
      }),
    })
    return ctx.response.json(result)
  }
}
