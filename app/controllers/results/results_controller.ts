import type { HttpContext } from '@adonisjs/core/http'
import { ListResults } from '#actions/results/list_results'
import { LoadResultsTable } from '#actions/results/results_table'
import { DeleteResults } from '#actions/results/delete_results'
import { ArchiveResults } from '#actions/results/archive_results'
import { ExportResults } from '#actions/results/export_results'
import { ResultsAnalytics } from '#actions/results/results_analytics'
import { ShowResult } from '#actions/results/show_result'
import { toResultDetailDto, toResultRowDto } from '#dtos/result_dto'
import {
  exportResultsValidator,
  listResultsValidator,
  resultsSelectionValidator,
} from '#validators/results'
import type { ResultsPageDto } from '#shared/results/types'

/** The results tab's JSON calls (session). Members read and export; write mode changes. */
export default class ResultsController {
  async table({ auth, params }: HttpContext) {
    return new LoadResultsTable().handle(auth.user!, params.id)
  }

  async index({ auth, params, request }: HttpContext): Promise<ResultsPageDto> {
    const input = await listResultsValidator.validate(request.qs())
    const page = await new ListResults().handle(auth.user!, params.id, input)
    return {
      results: page.results.map((result) =>
        toResultRowDto(result, page.answers.get(result.id) ?? [], page.columns)
      ),
      nextCursor: page.nextCursor,
      total: page.total,
    }
  }

  async show({ auth, params }: HttpContext) {
    const { result, columns } = await new ShowResult().handle(
      auth.user!,
      params.id,
      params.resultId
    )
    return toResultDetailDto(result, columns)
  }

  async destroy({ auth, params, request }: HttpContext) {
    const target = await request.validateUsing(resultsSelectionValidator)
    return new DeleteResults().handle(auth.user!, params.id, target)
  }

  async archive({ auth, params, request }: HttpContext) {
    const target = await request.validateUsing(resultsSelectionValidator)
    return new ArchiveResults().handle(auth.user!, params.id, target)
  }

  /** A streamed CSV; X-Total-Count lets the page show progress. */
  async export({ auth, params, request, response }: HttpContext) {
    const input = await request.validateUsing(exportResultsValidator)
    const { csv, total, fileName } = await new ExportResults().handle(auth.user!, params.id, input)
    response.header('Content-Type', 'text/csv; charset=utf-8')
    response.header('Content-Disposition', `attachment; filename="${fileName}"`)
    response.header('X-Total-Count', String(total))
    response.header('Cache-Control', 'no-store')
    response.stream(csv)
  }

  async analytics({ auth, params }: HttpContext) {
    return new ResultsAnalytics().handle(auth.user!, params.id)
  }
}
