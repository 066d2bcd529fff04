import { definePlugin, field } from '#sdk/plugin'
import { modelNodeAction } from '#sdk/ai_fields'

export const BEDROCK_DEFAULT_REGION = 'us-east-1'
export const BEDROCK_DEFAULT_MODEL = 'anthropic.claude-3-haiku-20240307-v1:0'
/** Bedrock temperature 0.7, maxRetries 0 to 5. */
export const BEDROCK_DEFAULT_TEMPERATURE = 0.7
export const BEDROCK_MAX_RETRIES = 5
export const BEDROCK_DEFAULT_RETRIES = 2

/**
 * Models offered in the list (any model id or inference profile may be typed): chat models
 * that take tools through Converse.
 */
export const BEDROCK_MODELS = [
  'anthropic.claude-3-haiku-20240307-v1:0',
  'anthropic.claude-3-5-haiku-20241022-v1:0',
  'anthropic.claude-3-5-sonnet-20240620-v1:0',
  'us.anthropic.claude-3-7-sonnet-20250219-v1:0',
  'amazon.nova-micro-v1:0',
  'amazon.nova-lite-v1:0',
  'amazon.nova-pro-v1:0',
  'meta.llama3-1-70b-instruct-v1:0',
  'mistral.mistral-large-2407-v1:0',
  'cohere.command-r-plus-v1:0',
] as const

const modelNode = modelNodeAction({ defaultModel: BEDROCK_DEFAULT_MODEL })

/**
 * Models hosted on Amazon Bedrock as the Model node of workflow LLM agents, through the
 * Converse API with the account's IAM access key (requests signed with SigV4).
 */
export default definePlugin({
  id: 'amazon-bedrock',
  name: 'Amazon Bedrock',
  fullName: 'Amazon Bedrock chat model',
  tags: ['ai', 'llm', 'aws', 'model'],
  description: 'Models hosted on Amazon Bedrock for LLM agents',
  category: 'model',
  scope: 'user',
  icon: 'cloud',
  version: 1,
  docsUrl: 'https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html',
  serves: ['workflow'],
  credentials: {
    accessKeyId: field.string({
      label: 'Access key ID',
      placeholder: 'AKIA...',
      required: true,
      helperText: 'An IAM access key allowed to call bedrock:InvokeModel.',
    }),
    secretAccessKey: field.string({ label: 'Secret access key', secret: true, required: true }),
    sessionToken: field.string({
      label: 'Session token',
      secret: true,
      helperText: 'Only for temporary credentials.',
    }),
    region: field.string({ label: 'Region', defaultValue: BEDROCK_DEFAULT_REGION, required: true }),
    baseUrl: field.string({
      format: 'url',
      label: 'Endpoint',
      helperText:
        "Empty uses the region's Bedrock runtime endpoint; set it for a VPC endpoint or a proxy.",
    }),
  },
  options: {
    credentialsId: field.credentials({
      label: 'Account',
      credentialType: 'amazon-bedrock',
      required: true,
    }),
  },
  actions: {
    'Chat model': {
      ...modelNode,
      options: {
        ...modelNode.options,
        temperature: field.number({
          label: 'Temperature',
          min: 0,
          max: 2,
          step: 0.1,
          defaultValue: BEDROCK_DEFAULT_TEMPERATURE,
        }),
        maxRetries: field.number({
          label: 'Maximum retries',
          min: 0,
          max: BEDROCK_MAX_RETRIES,
          step: 1,
          defaultValue: BEDROCK_DEFAULT_RETRIES,
          helperText: 'Tries a model call again after a server error or a network failure.',
        }),
      },
    },
  },
})
