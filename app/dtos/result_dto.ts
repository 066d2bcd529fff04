import type Result from '#models/result'
import type Answer from '#models/answer'
import type ResultLog from '#models/result_log'
import { resultCells } from '#actions/results/result_columns'
import { withSignedFileLinks } from '#services/storage'
import type {
  AnswerDto,
  ResultColumnDto,
  ResultDetailDto,
  ResultLogDto,
  ResultRowDto,
} from '#shared/results/types'

/*
| Results go to members of the bot's workspace only (app/actions/results/results_access.ts).
| Links to private files in them are replaced by fresh signed ones, so a member reads the
| file from the page, the CSV or the API without a session on this host; the stored answer
| keeps the stable, unsigned link (docs/security.md, "Storage").
*/

function withSignedLinks<T>(value: T): T {
  if (typeof value === 'string') return withSignedFileLinks(value) as T
  if (Array.isArray(value)) return value.map(withSignedLinks) as T
  return value
}

function signedCells(cells: Record<string, string>) {
  for (const id of Object.keys(cells)) cells[id] = withSignedFileLinks(cells[id])
  return cells
}

export function toAnswerDto(answer: Answer): AnswerDto {
  return {
    blockId: answer.blockId,
    groupId: answer.groupId,
    variableId: answer.variableId,
    content: withSignedFileLinks(answer.content),
    attachedFileUrls: withSignedLinks(answer.attachedFileUrls ?? []),
    createdAt: answer.createdAt.toISO()!,
  }
}

export function toResultLogDto(log: ResultLog): ResultLogDto {
  return {
    id: log.id,
    status: log.status,
    description: log.description,
    details: log.details ?? null,
    createdAt: log.createdAt.toISO()!,
  }
}

/** The REST API's result: answers and variables as stored. */
export function toResultApiDto(result: Result, answers: Answer[]) {
  return {
    id: result.id,
    createdAt: result.createdAt.toISO()!,
    hasStarted: result.hasStarted,
    isCompleted: result.isCompleted,
    /** The language the chat ran in (bots in several languages), else null. */
    language: result.language ?? null,
    variables: (result.variables ?? []).map((v) => ({ ...v, value: withSignedLinks(v.value) })),
    answers: answers.map(toAnswerDto),
  }
}

/** A row of the results table: one cell per column. */
export function toResultRowDto(
  result: Result,
  answers: Answer[],
  columns: ResultColumnDto[]
): ResultRowDto {
  const createdAt = result.createdAt.toISO()!
  return {
    id: result.id,
    createdAt,
    hasStarted: result.hasStarted,
    isCompleted: result.isCompleted,
    isArchived: result.isArchived,
    cells: signedCells(
      resultCells(
        { createdAt, variables: result.variables, language: result.language },
        answers,
        columns
      )
    ),
  }
}

/** The log view: answers labelled like the table's columns, then logs. */
export function toResultDetailDto(result: Result, columns: ResultColumnDto[]): ResultDetailDto {
  const labels = new Map(columns.map((column) => [column.id, column.label]))
  return {
    id: result.id,
    createdAt: result.createdAt.toISO()!,
    hasStarted: result.hasStarted,
    isCompleted: result.isCompleted,
    isArchived: result.isArchived,
    answers: result.answers.map((answer) => ({
      ...toAnswerDto(answer),
      label: labels.get(answer.blockId) ?? answer.blockId,
    })),
    variables: (result.variables ?? []).map((v) => ({
      id: v.id,
      name: v.name,
      value: withSignedLinks(v.value),
    })),
    logs: result.logs.map(toResultLogDto),
    location: result.location ?? null,
    deviceDetails: result.deviceDetails ?? null,
    language: result.language ?? null,
  }
}
