import { test } from '@japa/runner'
import { defaultWorkflowSettings } from '#shared/workflow/types'
import { validateWorkflow } from '#shared/workflow/validate'
import {
  addCondition,
  addNode,
  addVariable,
  attach,
  connect,
  deleteCondition,
  deleteEdges,
  deleteNodes,
  duplicateNode,
  moveNodes,
  newNode,
  renameNode,
  renameVariable,
  setNodeDisabled,
  variableNameError,
  type WorkflowDoc,
} from '../../../resources/features/workflow_editor/workflow_editing.js'

/** The editor's pure editing rules (resources/features/workflow_editor/workflow_editing.ts). */

function emptyDoc(): WorkflowDoc {
  return {
    name: 'Test',
    blocks: [],
    edges: [],
    variables: [],
    settings: defaultWorkflowSettings(),
  }
}

function graph() {
  const trigger = newNode('manual-trigger', { x: 0, y: 0 })
  const condition = newNode(
    'workflow-condition',
    { x: 300, y: 0 },
    { conditions: [{ content: { comparisons: [], logicalOperator: 'AND' } }] }
  )
  const action = newNode('send-email', { x: 600, y: 0 }, { options: { to: 'a@b.c' } })
  let doc = emptyDoc()
  for (const block of [trigger, condition, action]) doc = addNode(doc, block)
  return { doc, trigger, condition, action }
}

test.group('Workflow editor editing rules', () => {
  test('connect sets outgoingEdgeId, refuses loops on itself and twins, allows fan-out', ({
    assert,
  }) => {
    const { doc, trigger, condition, action } = graph()
    const first = connect(doc, { blockId: trigger.id }, condition.id)
    assert.exists(first.edgeId)
    assert.equal(first.doc.blocks.find((b) => b.id === trigger.id)!.outgoingEdgeId, first.edgeId)
    assert.strictEqual(connect(first.doc, { blockId: trigger.id }, condition.id).doc, first.doc)
    assert.strictEqual(connect(first.doc, { blockId: trigger.id }, trigger.id).doc, first.doc)
    const fanOut = connect(first.doc, { blockId: trigger.id }, action.id)
    assert.lengthOf(fanOut.doc.edges, 2)
    // The first edge of the default path stays the node's outgoingEdgeId.
    assert.equal(fanOut.doc.blocks.find((b) => b.id === trigger.id)!.outgoingEdgeId, first.edgeId)
    assert.isTrue(validateWorkflow(fanOut.doc).ok)
  })

  test('a branch edge leaves from its condition and goes with it', ({ assert }) => {
    const { doc, condition, action } = graph()
    const branchId = condition.conditions![0].id
    const joined = connect(doc, { blockId: condition.id, conditionId: branchId }, action.id)
    const edge = joined.doc.edges[0]
    assert.deepEqual(edge.from, { blockId: condition.id, conditionId: branchId })
    // A branch edge is not the node's default path.
    assert.isUndefined(joined.doc.blocks.find((b) => b.id === condition.id)!.outgoingEdgeId)
    assert.isTrue(validateWorkflow(joined.doc).ok)

    // The last branch cannot go; a second one can, with its edges.
    assert.isTrue(deleteCondition(joined.doc, condition.id, branchId).refused)
    const two = addCondition(joined.doc, condition.id, {})
    const removed = deleteCondition(two.doc, condition.id, branchId)
    assert.lengthOf(removed.doc.edges, 0)
    assert.lengthOf(removed.doc.blocks.find((b) => b.id === condition.id)!.conditions!, 1)
    // Unknown branches are refused.
    assert.strictEqual(
      connect(doc, { blockId: condition.id, conditionId: 'nope' }, action.id).doc,
      doc
    )
  })

  test('duplicate: new ids, x+200 y+100, no edges; disable and rename', ({ assert }) => {
    const { doc, trigger, condition } = graph()
    const joined = connect(doc, { blockId: condition.id }, trigger.id).doc
    const { doc: next, blockId } = duplicateNode(joined, condition.id)
    const copy = next.blocks.find((b) => b.id === blockId)!
    assert.notEqual(copy.id, condition.id)
    assert.deepEqual(copy.graphCoordinates, { x: 500, y: 100 })
    assert.isUndefined(copy.outgoingEdgeId)
    assert.notEqual(copy.conditions![0].id, condition.conditions![0].id)
    assert.lengthOf(next.edges, 1)
    assert.isTrue(validateWorkflow(next).ok)

    const disabled = setNodeDisabled(next, copy.id, true)
    assert.isTrue(disabled.blocks.find((b) => b.id === copy.id)!.isDisabled)
    assert.strictEqual(setNodeDisabled(disabled, copy.id, true), disabled)
    const enabled = setNodeDisabled(disabled, copy.id, false)
    assert.notProperty(
      enabled.blocks.find((b) => b.id === copy.id)!,
      'isDisabled'
    )

    const named = renameNode(enabled, copy.id, '  Route  ')
    assert.equal(named.blocks.find((b) => b.id === copy.id)!.title, 'Route')
    assert.notProperty(
      renameNode(named, copy.id, ' ').blocks.find((b) => b.id === copy.id)!,
      'title'
    )
  })

  test('deleting nodes and edges keeps the graph valid; unchanged nodes keep identity', ({
    assert,
  }) => {
    const { doc, trigger, condition, action } = graph()
    let next = connect(doc, { blockId: trigger.id }, condition.id).doc
    next = connect(next, { blockId: condition.id }, action.id).doc
    const gone = deleteNodes(next, [condition.id])
    assert.lengthOf(gone.edges, 0)
    assert.isUndefined(gone.blocks.find((b) => b.id === trigger.id)!.outgoingEdgeId)
    assert.strictEqual(
      gone.blocks.find((b) => b.id === action.id),
      next.blocks.find((b) => b.id === action.id)
    )
    assert.isTrue(validateWorkflow(gone).ok)
    const cut = deleteEdges(next, [next.edges[0].id])
    assert.lengthOf(cut.edges, 1)
    assert.isTrue(validateWorkflow(cut).ok)

    const moved = moveNodes(next, [{ id: action.id, position: { x: 10.123, y: 5.555 } }])
    assert.deepEqual(moved.blocks.find((b) => b.id === action.id)!.graphCoordinates, {
      x: 10.12,
      y: 5.56,
    })
    assert.strictEqual(
      moveNodes(moved, [{ id: action.id, position: { x: 10.12, y: 5.56 } }]),
      moved
    )
  })

  test('attachments: one model (replaced), many tools', ({ assert }) => {
    let doc = emptyDoc()
    const agent = newNode('agent', { x: 0, y: 0 })
    const modelA = newNode('model-a', { x: 0, y: 200 })
    const modelB = newNode('model-b', { x: 200, y: 200 })
    const tool1 = newNode('tool-1', { x: 400, y: 200 })
    const tool2 = newNode('tool-2', { x: 600, y: 200 })
    for (const block of [agent, modelA, modelB, tool1, tool2]) doc = addNode(doc, block)
    const model = { name: 'model', multiple: false }
    const tools = { name: 'tools', multiple: true }
    doc = attach(doc, agent.id, model, modelA.id).doc
    doc = attach(doc, agent.id, model, modelB.id).doc
    doc = attach(doc, agent.id, tools, tool1.id).doc
    doc = attach(doc, agent.id, tools, tool2.id).doc
    assert.deepEqual(
      doc.edges.map((edge) => [edge.attachmentName, edge.to.blockId, edge.isAttachment]),
      [
        ['model', modelB.id, true],
        ['tools', tool1.id, true],
        ['tools', tool2.id, true],
      ]
    )
    // Attachments are not the agent's default path.
    assert.isUndefined(doc.blocks.find((b) => b.id === agent.id)!.outgoingEdgeId)
    assert.isTrue(validateWorkflow(doc).ok)
  })

  test('variables: names follow the rule and stay unique', ({ assert }) => {
    let doc = emptyDoc()
    const added = addVariable(doc, 'Status')
    doc = added.doc
    assert.match(added.variable!.id, /^v/)
    assert.strictEqual(addVariable(doc, 'Status').doc, doc)
    assert.equal(variableNameError(doc.variables, 'Status'), 'taken')
    assert.equal(variableNameError(doc.variables, '   '), 'empty')
    assert.equal(variableNameError(doc.variables, 'a{b}'), 'invalid')
    doc = addVariable(doc, 'Total').doc
    assert.strictEqual(renameVariable(doc, added.variable!.id, 'Total'), doc)
    const renamed = renameVariable(doc, added.variable!.id, 'State')
    assert.equal(renamed.variables[0].name, 'State')
    assert.isTrue(validateWorkflow(renamed).ok)
  })
})
