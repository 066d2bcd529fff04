import type User from '#models/user'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'

export async function tokenFor(user: User) {
  return (await new CreateApiToken().handle(user, `t-${Date.now()}-${Math.random()}`)).value
}

export function botFile(name: string) {
  return {
    version: '6',
    name,
    groups: [
      {
        id: 'g1',
        title: 'Group #1',
        graphCoordinates: { x: 0, y: 0 },
        blocks: [
          {
            id: 'hello',
            type: 'text',
            content: { richText: [{ type: 'p', children: [{ text: 'Hello there' }] }] },
          },
          { id: 'b1', type: 'text input', options: { variableId: 'v1' } },
        ],
      },
    ],
    events: [
      { id: 'start', type: 'start', graphCoordinates: { x: 0, y: 0 }, outgoingEdgeId: 'e0' },
    ],
    edges: [{ id: 'e0', from: { eventId: 'start' }, to: { groupId: 'g1' } }],
    variables: [{ id: 'v1', name: 'Name' }],
    theme: {},
    settings: {},
  }
}
