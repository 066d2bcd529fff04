/**
 * "{name}'s workspace"; without a name (a magic-link sign-up), named after the part of the
 * e-mail before the @, so that workspaces stay apart where several people's are listed (the
 * admin pages); "My workspace" when neither is known. " (1)", " (2)" … are appended while the
 * name is taken among the user's workspaces.
 */
export function defaultWorkspaceName(
  userName: string | null | undefined,
  taken: string[],
  email?: string | null
) {
  const owner = userName?.trim() || email?.split('@')[0]?.trim()
  const base = owner ? `${owner}'s workspace` : 'My workspace'
  return uniqueName(base, taken)
}

export function uniqueName(base: string, taken: string[]) {
  const set = new Set(taken)
  if (!set.has(base)) return base
  let n = 1
  while (set.has(`${base} (${n})`)) n++
  return `${base} (${n})`
}
