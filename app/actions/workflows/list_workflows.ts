import Workflow from '#models/workflow'

/** The workflows of a workspace for the list, most recently changed first. */
export class ListWorkflows {
  handle(workspaceId: string, options: { q?: string | null; archived?: boolean } = {}) {
    const q = options.q?.trim()
    return Workflow.query()
      .where('workspace_id', workspaceId)
      .where('is_archived', !!options.archived)
      .if(q, (query) => {
        // '!' escapes the wildcards the same way on SQLite, PostgreSQL and MySQL.
        const pattern = `%${q!.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`)}%`
        query.where((inner) =>
          inner
            .whereRaw(`lower(name) like ? escape '!'`, [pattern])
            .orWhereRaw(`lower(coalesce(description, '')) like ? escape '!'`, [pattern])
        )
      })
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
  }
}
