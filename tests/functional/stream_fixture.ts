/**
 * The streaming fixture bot: a question, an OpenAI "Create chat completion" block whose
 * Message content goes to {{Answer}} (Total tokens to {{Tokens}}), a text bubble showing
 * the answer, then one more question. Run plain and streamed, it must give the same chat.
 * Shared by the streaming functional tests and the viewer's streaming browser test.
 */

const p = (text: string) => ({ richText: [{ type: 'p', children: [{ text }] }] })

export const STREAM_MODEL = 'gpt-4o-mini'

export function streamFixtureBot(credentialsId: string, name = 'Streaming bot') {
  return {
    version: '6',
    name,
    events: [
      { id: 'ev_start', type: 'start', graphCoordinates: { x: 0, y: 0 }, outgoingEdgeId: 'e1' },
    ],
    edges: [
      { id: 'e1', from: { eventId: 'ev_start' }, to: { groupId: 'g1' } },
      { id: 'e2', from: { blockId: 'ai' }, to: { groupId: 'g2' } },
    ],
    variables: [
      { id: 'v_question', name: 'Question' },
      { id: 'v_answer', name: 'Answer' },
      { id: 'v_tokens', name: 'Tokens' },
      { id: 'v_more', name: 'More' },
    ],
    groups: [
      {
        id: 'g1',
        title: 'Ask',
        graphCoordinates: { x: 0, y: 100 },
        blocks: [
          { id: 't1', type: 'text', content: p('Ask me anything.') },
          { id: 'q1', type: 'text input', options: { variableId: 'v_question' } },
          {
            id: 'ai',
            type: 'openai',
            outgoingEdgeId: 'e2',
            options: {
              action: 'Create chat completion',
              credentialsId,
              model: STREAM_MODEL,
              messages: [
                { role: 'system', content: 'Answer briefly.' },
                { role: 'user', content: '{{Question}}' },
              ],
              responseMapping: [
                { id: 'm1', item: 'Message content', variableId: 'v_answer' },
                { id: 'm2', item: 'Total tokens', variableId: 'v_tokens' },
              ],
            },
          },
        ],
      },
      {
        id: 'g2',
        title: 'Answer',
        graphCoordinates: { x: 300, y: 100 },
        blocks: [
          { id: 't2', type: 'text', content: p('AI: {{Answer}}') },
          { id: 't3', type: 'text', content: p('Anything else?') },
          { id: 'q2', type: 'text input', options: { variableId: 'v_more' } },
          { id: 't4', type: 'text', content: p('Bye!') },
        ],
      },
    ],
    theme: {},
    settings: {},
  }
}
