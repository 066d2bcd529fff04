import type { HttpContext } from '@adonisjs/core/http'
import { ListResults } from '#actions/results/list_results'
import { ShowResult } from '#actions/results/show_result'
import { toResultApiDto, toResultLogDto } from '#dtos/result_dto'
import { listResultsValidator } from '#validators/results'

/** REST API for results (API tokens or the session). Documented in openapi_results.ts. */
export default class ApiResultsController {
  async index({ auth, params, request }: HttpContext) {
    const input = await listResultsValidator.validate(request.qs())
    const page = await new ListResults().handle(auth.user!, params.id, input)
    return {
      results: page.results.map((r) => toResultApiDto(r, page.answers.get(r.id) ?? [])),
      nextCursor: page.nextCursor,
    }
  }

  async logs({ auth, params }: HttpContext) {
    const { result } = await new ShowResult().handle(auth.user!, params.id, params.resultId)
    return { logs: result.logs.map(toResultLogDto) }
  }
}
