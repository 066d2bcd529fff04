import type Result from '#models/result'
import type Answer from '#models/answer'
import type ResultLog from '#models/result_log'
import { resultCells } from '#actions/results/result_columns'
import type {
  AnswerDto,
  ResultColumnDto,
  ResultDetailDto,
  ResultLogDto,
  ResultRowDto,
} from '#shared/results/types'

export function toAnswerDto(answer: Answer): AnswerDto {
  return {
    blockId: answer.blockId,
    groupId: answer.groupId,
    variableId: answer.variableId,
    content: answer.content,
    attachedFileUrls: answer.attachedFileUrls ?? [],
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
    variables: result.variables ?? [],
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
    cells: resultCells({ createdAt, variables: result.variables }, answers, columns),
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
    variables: (result.variables ?? []).map((v) => ({ id: v.id, name: v.name, value: v.value })),
    logs: result.logs.map(toResultLogDto),
    location: result.location ?? null,
    deviceDetails: result.deviceDetails ?? null,
  }
}
