import type { HttpContext } from '@adonisjs/core/http'
import { ListRuns } from '#actions/workflows/list_runs'
import { ReceiveWorkflowWebhook } from '#actions/workflows/receive_workflow_webhook'
import { ResumeWaitingRun } from '#actions/workflows/resume_waiting_run'
import { ShowRun } from '#actions/workflows/show_run'
import { StartManualRun } from '#actions/workflows/start_manual_run'
import { StartTestRun } from '#actions/workflows/start_test_run'
import { type WebhookCallInput } from '#actions/workflows/workflow_runs'
import { testRunValidator } from '#validators/workflow'

function callOf(ctx: HttpContext): WebhookCallInput {
  return {
    method: ctx.request.method(),
    headers: ctx.request.headers(),
    query: ctx.request.qs(),
    body: ctx.request.method() === 'GET' ? null : ctx.request.body(),
  }
}

/** Workflow runs: manual runs, run history, webhook calls. */
export default class RunsController {
  async start(ctx: HttpContext) {
    const input = ctx.request.input('input', {})
    const result = await new StartManualRun().handle(ctx.auth.getUserOrFail(), ctx.params.id, input)
    return ctx.response.status(202).send(result)
  }

  /** POST /api/v1/workflows/:id/test-run {input?, nodeId?, usePinned?}: runs the draft. */
  async test(ctx: HttpContext) {
    const { input, nodeId, usePinned } = await ctx.request.validateUsing(testRunValidator)
    const result = await new StartTestRun().handle(
      ctx.auth.getUserOrFail(),
      ctx.params.id,
      input ?? {},
      { nodeId, usePinned }
    )
    return ctx.response.status(202).send(result)
  }

  async index(ctx: HttpContext) {
    const limit = Number(ctx.request.input('limit', 50)) || 50
    const tests = ctx.request.input('tests') === 'true'
    return new ListRuns().handle(ctx.auth.getUserOrFail(), ctx.params.id, limit, { tests })
  }

  async show(ctx: HttpContext) {
    return new ShowRun().handle(ctx.auth.getUserOrFail(), ctx.params.runId)
  }

  async webhook(ctx: HttpContext) {
    const answer = await new ReceiveWorkflowWebhook().handle(ctx.params.id, callOf(ctx))
    for (const [name, value] of Object.entries(answer.headers ?? {}))
      ctx.response.header(name, value)
    return ctx.response.status(answer.status).send(answer.body)
  }

  async resume(ctx: HttpContext) {
    return new ResumeWaitingRun().handle(ctx.params.id, ctx.params.runId, callOf(ctx))
  }
}
