/**
 * Small builders shared by the OpenAPI parts (openapi.ts and openapi_*.ts). Their texts
 * describe the API; they are not messages shown to people.
 */
export const withText = <T extends object>(schema: T, text: string) => ({
  ...schema,
  description: text,
})

export const pathParam = (name: string, text: string) =>
  withText({ name, in: 'path', required: true, schema: { type: 'string' } }, text)

export const queryParam = (name: string, schema: object, text: string) =>
  withText({ name, in: 'query', required: false, schema }, text)

export const error = { $ref: '#/components/responses/Error' }

export const json = (schema: unknown) => ({ 'application/json': { schema } })

/** A response: its text, and its JSON body when it has one. */
export const reply = (text: string, schema?: object) =>
  withText(schema ? { content: json(schema) } : {}, text)
