import { privateKey } from '#services/storage'

/** Size limit of a file answer when the block sets none ("10MB"). */
export const DEFAULT_FILE_LIMIT_MB = 10

/** Where a file answered by a visitor is kept (private when the block says so). */
export function chatFileKey(
  head: { botId: string; workspaceId: string; resultId?: string },
  visibility: unknown,
  name: string
) {
  const resultId = head.resultId ?? 'preview'
  return visibility === 'Private'
    ? privateKey(head.workspaceId, 'results', head.botId, resultId, name)
    : `public/results/${head.botId}/${resultId}/${name}`
}
