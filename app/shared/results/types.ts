/**
 * What the results screens receive (app/dtos/result_dto.ts builds them): shared by the
 * server and the React results tab.
 */
import type { BotEvent, Edge, Group, ResultsTablePreferences, Variable } from '#shared/bot/types'

/** The id of the "Submitted at" column (blocks and variables use their own ids). */
export const SUBMITTED_AT_COLUMN = 'createdAt'

/**
 * The id of the "Language" column: listed for a bot that has languages set up, whose
 * results record the language each chat ran in.
 */
export const LANGUAGE_COLUMN = 'resultLanguage'

export type ResultColumnKind = 'block' | 'variable' | 'submittedAt' | 'language'

/** One column of the results table and of the CSV export. */
export interface ResultColumnDto {
  /** The block id, the variable id, SUBMITTED_AT_COLUMN or LANGUAGE_COLUMN. */
  id: string
  kind: ResultColumnKind
  /** "Group title · Block" or the variable name the block saves into. */
  label: string
  /** Block columns: the plugin id (block type), for an icon. */
  blockType?: string
  groupId?: string
}

/** A row of the results table: one visitor, cells by column id. */
export interface ResultRowDto {
  id: string
  createdAt: string
  hasStarted: boolean
  isCompleted: boolean
  isArchived: boolean
  cells: Record<string, string>
}

export interface ResultsPageDto {
  results: ResultRowDto[]
  nextCursor: string | null
  /** Results matching the filter: only on the first page (no cursor). */
  total?: number
}

export interface ResultsTableDto {
  columns: ResultColumnDto[]
  preferences: ResultsTablePreferences
  canWrite: boolean
}

export interface AnswerDto {
  blockId: string
  groupId: string
  variableId: string | null
  content: string
  attachedFileUrls: string[]
  createdAt: string
}

export type ResultLogStatus = 'success' | 'info' | 'error'

export interface ResultLogDto {
  id: number
  status: ResultLogStatus
  description: string
  details: unknown
  createdAt: string
}

/** The log view of one result (the side sheet). */
export interface ResultDetailDto {
  id: string
  createdAt: string
  hasStarted: boolean
  isCompleted: boolean
  isArchived: boolean
  answers: (AnswerDto & { label: string })[]
  variables: { id: string; name: string; value: unknown }[]
  logs: ResultLogDto[]
  location: Record<string, unknown> | null
  deviceDetails: Record<string, unknown> | null
  /** The language the chat ran in (bots in several languages), else null. */
  language: string | null
}

export interface ResultsStatsDto {
  totalViews: number
  totalStarts: number
  totalCompleted: number
}

/** Per input block: visitors who answered it and visitors who stopped before answering. */
export interface BlockDropOffDto {
  blockId: string
  answered: number
  dropped: number
  /** dropped / (answered + dropped), 0 to 1. */
  dropRate: number
  /** Visitors who left the question unanswered past its reply timeout ("No reply" path). */
  timedOut: number
}

export interface ResultsAnalyticsDto {
  stats: ResultsStatsDto
  dropOffs: BlockDropOffDto[]
  /** The flow the results came from (the published version when there is one). */
  graph: { groups: Group[]; edges: Edge[]; events: BotEvent[]; variables: Variable[] }
  inputBlockIds: string[]
}

/** Which results an action applies to: the ids, or every result matching the filter. */
export interface ResultsSelection {
  ids?: string[]
  all?: boolean
  search?: string
  includeAll?: boolean
}
