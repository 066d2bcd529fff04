import { useEffect, useState } from 'react'
import { jsonFetch } from '~/lib/http'
import type { FormCredentials, FormField } from './types'

/** True when a form (or a list item inside it) has a credentials picker. */
export function hasCredentialsField(fields: readonly FormField[]): boolean {
  return fields.some(
    (field) =>
      field.kind === 'credentials' ||
      (field.fields ? hasCredentialsField(field.fields) : false) ||
      (field.itemFields ? hasCredentialsField(field.itemFields) : false)
  )
}

/**
 * The workspace's credentials records the user may pick (names and types, never their
 * data), fetched once a form needs them. On failure the picker offers none, with its link
 * to add some.
 */
export function useWorkspaceCredentials(workspaceId: string | undefined, needed: boolean) {
  const [records, setRecords] = useState<FormCredentials[]>([])
  useEffect(() => {
    if (!needed || !workspaceId) return
    const controller = new AbortController()
    jsonFetch<{ credentials: FormCredentials[] }>(
      `/api/v1/workspaces/${encodeURIComponent(workspaceId)}/credentials`,
      { signal: controller.signal }
    )
      .then((answer) => setRecords(answer.credentials ?? []))
      .catch(() => {})
    return () => controller.abort()
  }, [workspaceId, needed])
  return records
}
