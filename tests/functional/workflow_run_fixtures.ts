import WorkflowRunNode from '#models/workflow_run_node'

export function nodesOf(runId: string) {
  return WorkflowRunNode.query().where('runId', runId).orderBy('id')
}
