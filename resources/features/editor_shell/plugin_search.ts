/**
 * The palette search of both editors: a block matches when the typed text is in its name,
 * its full name, its id or one of its tags (every block
 * declares a fullName and tags, so "llm" finds OpenAI and "sql" finds MySQL).
 */
export interface SearchablePlugin {
  id: string
  name: string
  fullName?: string
  tags?: readonly string[]
}

export function matchesPluginSearch(plugin: SearchablePlugin, query: string) {
  const needle = query.trim().toLowerCase()
  if (!needle) return true
  return (
    plugin.name.toLowerCase().includes(needle) ||
    plugin.id.toLowerCase().includes(needle) ||
    (plugin.fullName ?? '').toLowerCase().includes(needle) ||
    (plugin.tags ?? []).some((tag) => tag.toLowerCase().includes(needle))
  )
}

/** The data-testid suffix of a plugin: spaces become dashes ('text input' → 'text-input'). */
export function pluginTestId(id: string) {
  return id.replace(/\s+/g, '-')
}
