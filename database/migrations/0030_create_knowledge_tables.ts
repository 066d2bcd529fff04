import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Knowledge stores (the Vectors page),
 * their sources and the chunks search reads (docs/knowledge.md). Keyword search needs a
 * full-text index of its own on each database: FTS5 on SQLite (kept in step by triggers), a
 * GIN index on the chunks' tsvector on PostgreSQL, a FULLTEXT index on MySQL/MariaDB.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('knowledge_stores', (table) => {
      table.string('id', 32).primary()
      table
        .string('workspace_id', 32)
        .notNullable()
        .references('id')
        .inTable('workspaces')
        .onDelete('CASCADE')
      table
        .string('created_by', 32)
        .nullable()
        .references('id')
        .inTable('users')
        .onDelete('SET NULL')
      table.string('name', 255).notNullable()
      table.string('index_name', 64).notNullable()
      table.string('chunking_method', 16).notNullable().defaultTo('recursive')
      table.integer('chunk_size').notNullable().defaultTo(1000)
      table.integer('overlap_size').notNullable().defaultTo(100)
      // The workspace credentials whose plugin embeds (docs/knowledge.md, "Hybrid search").
      table
        .string('embedding_credentials_id', 32)
        .nullable()
        .references('id')
        .inTable('credentials')
        .onDelete('SET NULL')
      table.string('embedding_model', 128).nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').notNullable()
      table.index(['workspace_id', 'index_name'])
    })

    this.schema.createTable('knowledge_sources', (table) => {
      table.string('id', 32).primary()
      table
        .string('store_id', 32)
        .notNullable()
        .references('id')
        .inTable('knowledge_stores')
        .onDelete('CASCADE')
      table.string('type', 8).notNullable()
      table.string('name', 512).notNullable()
      table.string('status', 16).notNullable().defaultTo('PENDING')
      table.text('error').nullable()
      table.integer('progress').notNullable().defaultTo(0)
      // TEXT: the text; QNA: the pairs as JSON; URL: the address; FILE: its storage key.
      table.text('content', 'longtext').nullable()
      table.string('url', 2048).nullable()
      table.string('file_key', 512).nullable()
      table.string('mime_type', 128).nullable()
      table.bigInteger('size').nullable()
      table.integer('chunk_count').notNullable().defaultTo(0)
      // Bumped by each re-index: a job of an older revision finds it moved and stops.
      table.integer('revision').notNullable().defaultTo(1)
      table.timestamp('indexed_at').nullable()
      table.timestamp('created_at').notNullable()
      table.timestamp('updated_at').notNullable()
      table.index(['store_id', 'created_at'])
    })

    this.schema.createTable('knowledge_chunks', (table) => {
      table.increments('id')
      table
        .string('store_id', 32)
        .notNullable()
        .references('id')
        .inTable('knowledge_stores')
        .onDelete('CASCADE')
      table
        .string('source_id', 32)
        .notNullable()
        .references('id')
        .inTable('knowledge_sources')
        .onDelete('CASCADE')
      table.integer('position').notNullable()
      table.text('content', 'mediumtext').notNullable()
      // float32 little-endian, the layout sqlite-vec reads (docs/knowledge.md).
      table.binary('embedding').nullable()
      table.index(['store_id'])
      table.index(['source_id', 'position'])
    })

    const dialect = this.db.dialect.name
    this.defer(async (db) => {
      if (dialect === 'better-sqlite3' || dialect === 'sqlite3') {
        await db.rawQuery(
          `create virtual table knowledge_chunks_fts using fts5(content, content='knowledge_chunks', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2')`
        )
        await db.rawQuery(
          `create trigger knowledge_chunks_ai after insert on knowledge_chunks begin insert into knowledge_chunks_fts(rowid, content) values (new.id, new.content); end`
        )
        await db.rawQuery(
          `create trigger knowledge_chunks_ad after delete on knowledge_chunks begin insert into knowledge_chunks_fts(knowledge_chunks_fts, rowid, content) values ('delete', old.id, old.content); end`
        )
      } else if (dialect === 'postgres') {
        await db.rawQuery(
          `create index knowledge_chunks_tsv on knowledge_chunks using gin (to_tsvector('english', content))`
        )
      } else if (dialect === 'mysql') {
        await db.rawQuery(
          `alter table knowledge_chunks add fulltext index knowledge_chunks_ft (content)`
        )
      }
    })
  }

  async down() {
    const dialect = this.db.dialect.name
    if (dialect === 'better-sqlite3' || dialect === 'sqlite3') {
      this.defer(async (db) => {
        await db.rawQuery('drop trigger if exists knowledge_chunks_ai')
        await db.rawQuery('drop trigger if exists knowledge_chunks_ad')
        await db.rawQuery('drop table if exists knowledge_chunks_fts')
      })
    }
    this.schema.dropTableIfExists('knowledge_chunks')
    this.schema.dropTableIfExists('knowledge_sources')
    this.schema.dropTableIfExists('knowledge_stores')
  }
}
