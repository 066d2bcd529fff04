/**
 * "{name}'s workspace" (or "My workspace" without a name), with " (1)", " (2)" … appended
 * while the name is taken among the user's workspaces.
 */
export function defaultWorkspaceName(userName: string | null | undefined, taken: string[]) {
  const base = userName?.trim() ? `${userName.trim()}'s workspace` : 'My workspace'
  return uniqueName(base, taken)
}

export function uniqueName(base: string, taken: string[]) {
  const set = new Set(taken)
  if (!set.has(base)) return base
  let n = 1
  while (set.has(`${base} (${n})`)) n++
  return `${base} (${n})`
}
